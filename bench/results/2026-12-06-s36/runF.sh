#!/usr/bin/env bash
# Session 36's call F: the landed defaults (causal d = 128 claims tiles
# from a counter; causal d = 80 and 96 persistent with the counter and Q on
# two slots) — the sm_90a DEFAULTS GPU cases (full grid and 3 programs,
# each launched twice), then the forward at d = 80, 96, 128, dense and
# causal, N = 1k to 16k, beside cuDNN in the same call.
# Carry: carry-F (make-carry-F.sh). On the device: rm -rf carry && mv carry-F carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cf > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cf > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases.txt $OUT/r/cases3.txt; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
S="1024,2048,4096,8192,16384"
timeout 100 python3 bench/compare.py --dirs head=carry/head --variants dense,causal --dims 80,96,128 --seqlens $S --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1; echo "f rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 80,96,128 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
