#!/usr/bin/env bash
# Session 38's call A: the overlapped forward's first key block peeled
# (peel_first=on: its Q·Kᵀ and softmax before the loops, no P·V of zeros,
# no V block read for it) — GPU cases with it on all programs and on 3,
# each launched twice; racecheck on causal d = 128; the forward at d = 96,
# 128, (192, 128), 256 new against old, N = 1k to 16k, two alternating
# runs; cuDNN in the same call.
# Carry: carry-A (make-carry-A.sh). On the device: rm -rf carry && mv carry-A carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
for set in pa pac; do
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/$set > $OUT/r/cases-$set.txt 2>&1; echo "cases $set rc $? $(( $(date +%s)-t0 ))s"
  TILEC_PERSISTENT_PROGRAMS=3 timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/$set > $OUT/r/cases3-$set.txt 2>&1; echo "cases $set on 3 programs rc $? $(( $(date +%s)-t0 ))s"
done
grep "cases:" $OUT/r/cases*.txt; cat $OUT/r/cases*.txt | grep -E "FAIL|rror" | head -20
mkdir -p carry/race && cp -r carry/pac/sm90a_d128_fwd_causal_ragged carry/race/
TILEC_PERSISTENT_PROGRAMS=3 timeout 40 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -E "SUMMARY|hazard|FAIL|PASS" $OUT/r/racecheck.txt | sort | uniq -c | head -5
S="1024,2048,4096,8192,16384"
timeout 230 python3 bench/compare.py --dirs old=carry/old,new=carry/new --variants dense,causal --dims 96,128,192v128,256 --seqlens $S --reps 2 --out $OUT/r/a > $OUT/r/a.txt 2>&1; echo "a rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 96,128,256 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens $S --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/a.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#" $OUT/r/heads.txt
cd $OUT && tar czf r.tgz r && rm -rf r
