#!/usr/bin/env bash
# Session 30's call G: the four GPU cases whose PTX the allocator's reuse
# barriers changed (carry-G/cases from scripts/gpu-cases.sh at that commit:
# the row-groups case and three d = 64 overlap cases), each alone, then
# under racecheck.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf carry && mv carry-G carry
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
for d in carry/cases/*; do
  rm -rf /tmp/one && mkdir -p /tmp/one && cp -r "$d" /tmp/one/
  echo "== $d"; build-gpu/bin/tilec-run-case --cases-in=/tmp/one 2>&1 | grep -E "PASS|FAIL"
  timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=/tmp/one 2>&1 | grep -E "ERROR SUMMARY|hazard" | head -3
done
