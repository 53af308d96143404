#!/usr/bin/env bash
# Session 35's call T1, part b (after runT1.sh on the same machine): --tile-counter (tilegpu-claim-tiles: persistent
# programs claim tiles from a global counter) — GPU cases, then speed at
# d = 128 (dense, causal), d = 96 (dense) and 256 against the defaults, with
# session 34's prepared Q (d = 128 Q in registers) beside, and cuDNN.
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
  cmake --build build-gpu --target tilec-run-case tilec-bench > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
S="1024,2048,4096,8192,16384"
timeout 80 python3 bench/compare.py --dirs head=carry/c_head,tc=carry/c_tc,alt=carry/p_alt --variants dense --dims 96 --seqlens $S --reps 2 --out $OUT/r/c96 > $OUT/r/c96.txt 2>&1; echo "c96 rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 bench/compare.py --dirs head=carry/h_head,tc=carry/h_tc --variants dense,causal --dims 256 --seqlens $S --reps 2 --out $OUT/r/h256 > $OUT/r/h256.txt 2>&1; echo "h256 rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 96,256 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c96.txt $OUT/r/h256.txt; grep -v "^#" $OUT/r/sdpa.txt
mkdir -p carry/race && cp -r carry/cc/sm90a_d128_fwd_causal_bh carry/race/
TILEC_PERSISTENT_PROGRAMS=3 timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -E "RACECHECK SUMMARY|hazard|FAIL|PASS" $OUT/r/racecheck.txt | sort | uniq -c | head -5
cd $OUT && tar czf r.tgz r && rm -rf r
