#!/usr/bin/env bash
# Session 35's call T1, part a (runT1b.sh is part b, on the same warm
# machine right after): --tile-counter (tilegpu-claim-tiles: persistent
# programs claim tiles from a global counter) — its GPU cases on the
# programs that fit and on 3, each launched twice, then causal and dense
# d = 128 at N = 1k, 4k, 16k against the static order, and cuDNN.
# Prepared, not run: no device could be started in session 35.
# Carry (carry-T, made by make-carry-T.sh): cases.tgz = `COUNTER=1 scripts/gpu-cases.sh /tmp/cc` packed
# with `tar czf carry-T/cases.tgz -C /tmp cc`; c_head/ =
# DIMS="128 96" VARIANTS="dense causal" bench/compile-variants.sh; c_tc/ the
# same with SETS="--persistent --tile-counter" (d = 96 dense only); q_*/,
# p_* as in runPQ.sh; h_head/ = DIMS=256 defaults, h_tc/ with
# SETS="--persistent --tile-counter"; peer_sdpa.py.
# On the device: rm -rf carry && mv carry-T carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cc > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cc > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -c "^PASS"; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
S="1024,2048,4096,8192,16384"
timeout 110 python3 bench/compare.py --dirs head=carry/c_head,tc=carry/c_tc --variants dense,causal --dims 128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/c128 > $OUT/r/c128.txt 2>&1; echo "c128 rc $? $(( $(date +%s)-t0 ))s"
timeout 50 python3 carry/peer_sdpa.py --dims 128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c128.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
