#!/usr/bin/env bash
# Session 31's call Q (see prepareQ.sh). On the device: rm -rf carry && mv carry-Q carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "PASS|FAIL"
TILEC_PERSISTENT_PROGRAMS=7 build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "PASS|FAIL"
timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard" | head -3
echo "cases $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --dirs def=carry/def,pers=carry/pers --variants causal --dims 96,112 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 96,112 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt | grep -P "\t1\t[0-9]+\t[0-9]+\t[0-9]+$"
TILEC_TEST_PTX_DIR=carry/torch-ptx timeout 240 python3 -m unittest discover -s python/tests -v > $OUT/r/python.txt 2>&1; echo "python rc $? $(( $(date +%s)-t0 ))s"
grep -E "^(Ran|OK|FAILED)|ERROR|FAIL:" $OUT/r/python.txt | head -20
timeout 150 python3 bench/compare.py --dirs head=carry/head --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/grid > $OUT/r/grid.txt 2>&1; echo "grid rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-grid.json > $OUT/r/sdpa-grid.txt 2>&1; echo "sdpa grid rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/grid.txt; grep -v "^#" $OUT/r/sdpa-grid.txt
cd $OUT && tar czf r.tgz r && rm -rf r
