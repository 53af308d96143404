#!/usr/bin/env bash
# Session 37's call G: the overlapped loop's first P·V not issued (wgmma
# under a guard predicate, issue_if) — the sm_90a DEFAULTS GPU cases on
# all programs and on 3, each launched twice; the d = 128 forward new
# against old, N = 1k to 16k, two alternating runs; cuDNN in the same call.
# Carry: carry-G (make-carry-G.sh). On the device: rm -rf carry && mv carry-G carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cg > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cg > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases.txt $OUT/r/cases3.txt; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
S="1024,2048,4096,8192,16384"
timeout 100 python3 bench/compare.py --dirs old=carry/old,new=carry/new --variants dense,causal --dims 128 --seqlens $S --reps 2 --out $OUT/r/g > $OUT/r/g.txt 2>&1; echo "g rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 128 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/g.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
