#!/usr/bin/env bash
# Session 32's call F: the overlapped key loop carrying the previous block's
# P in f32 (converted to bf16 right before its P·V) instead of bf16: in the
# d = 128 default's SASS ptxas then keeps every MUFU.EX2 between the two
# wgmma waits (with P in bf16 it hoists the P·V wait above them). f32p/
# compiled with that change, head/ = call E's fma0 (HEAD before it); cases/
# with the change. On the device: rm -rf carry && mv carry-F carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "PASS|FAIL"
timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "RACECHECK SUMMARY|hazard" | head -3
timeout 200 python3 bench/compare.py --dirs head=carry/head,f32p=carry/f32p --variants dense,causal --dims 128 --seqlens 1024,4096,16384 --reps 3 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
