#!/usr/bin/env bash
# Session 36's call A: Q on two slots at d = 128, O staged in the last V
# block's ring slot — the GPU cases (counter + two slots, d = 80/96/128)
# on all programs and on 3, each launched twice; racecheck on the causal
# d = 128 case; the d = 128 forward, head against ps, N = 1k to 16k.
# Carry: carry-A (make-carry-A.sh). On the device: rm -rf carry && mv carry-A carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 30 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/ca > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 30 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/ca > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases.txt $OUT/r/cases3.txt; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -10
mkdir -p carry/race && cp -r carry/ca/sm90a_d128_fwd_causal_bh carry/race/
TILEC_PERSISTENT_PROGRAMS=3 timeout 30 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -E "SUMMARY|hazard|FAIL" $OUT/r/racecheck.txt | sort | uniq -c | head -5
timeout 70 python3 bench/compare.py --dirs head=carry/head,ps=carry/ps --variants dense,causal --dims 128 --seqlens 1024,2048,4096,16384 --reps 2 --out $OUT/r/a > $OUT/r/a.txt 2>&1; echo "a rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/a.txt
cd $OUT && tar czf r.tgz r && rm -rf r
