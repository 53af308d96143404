#!/usr/bin/env bash
# Session 32's call E (see prepareE.sh). On the device: rm -rf carry && mv carry-E carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "PASS|FAIL"
timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" | head -3
echo "cases $(( $(date +%s)-t0 ))s"
timeout 400 python3 bench/compare.py --dirs fma0=carry/fma0,fma8=carry/fma8,fma4=carry/fma4,fma2=carry/fma2 --variants dense,causal --dims 64,128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
