#!/usr/bin/env bash
# Session 38's call C: causal d = 112 and 128 with Q on two slots by
# default (d = 112 persistent with the tile counter), the first key block
# peeled at d <= 128 — the tile-counter cases with two Q slots and the
# causal d = 112 cases on all programs and on 3, each launched twice;
# racecheck on causal d = 128; the forward grid before (old) and now (new),
# d = 64, 96, 112, 128, (192, 128), 256, N = 1k to 16k, two alternating
# runs; cuDNN in the same call.
# Carry: carry-C (make-carry-C.sh). On the device: rm -rf carry && mv carry-C carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/c > $OUT/r/cases-c.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/c > $OUT/r/cases3-c.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases*.txt; cat $OUT/r/cases*.txt | grep -E "FAIL|rror" | head -20
mkdir -p carry/race && cp -r carry/c/sm90a_d128_fwd_causal_ragged carry/race/
TILEC_PERSISTENT_PROGRAMS=3 timeout 40 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -E "SUMMARY" $OUT/r/racecheck.txt | head -3
S="1024,2048,4096,8192,16384"
timeout 260 python3 bench/compare.py --dirs old=carry/old,new=carry/new --variants dense,causal --dims 64,96,112,128,192v128,256 --seqlens $S --reps 2 --out $OUT/r/c > $OUT/r/c.txt 2>&1; echo "c rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 64,96,112,128,256 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens $S --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#" $OUT/r/heads.txt | grep -v Warning | grep -v "fn = lambda"
cd $OUT && tar czf r.tgz r && rm -rf r
