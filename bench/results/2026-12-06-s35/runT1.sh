#!/usr/bin/env bash
# Session 35's call T1 (part a: cases, d = 128; runT1b.sh the rest): --tile-counter (tilegpu-claim-tiles: persistent
# programs claim tiles from a global counter) — GPU cases, then speed at
# d = 128 (dense, causal), d = 96 (dense) and 256 against the defaults, with
# session 34's prepared Q (d = 128 Q in registers) beside, and cuDNN.
# Carry (carry-T): cases.tgz = export-counter-cases.sh; c_head/ =
# DIMS="128 96" VARIANTS="dense causal" bench/compile-variants.sh; c_tc/ the
# same with SETS="--persistent --tile-counter" (d = 96 dense only); q_*/,
# p_* as in runPQ.sh; h_head/ = DIMS=256 defaults, h_tc/ with
# SETS="--persistent --tile-counter"; peer_sdpa.py.
# On the device: rm -rf carry && mv carry-T carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case tilec-bench > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 100 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cc > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 100 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cc > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -c "^PASS"; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
S="1024,2048,4096,8192,16384"
timeout 150 python3 bench/compare.py --dirs head=carry/c_head,tc=carry/c_tc,qreg=carry/q_qreg --variants dense,causal --dims 128 --seqlens $S --reps 2 --out $OUT/r/c128 > $OUT/r/c128.txt 2>&1; echo "c128 rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 128 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c128.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
