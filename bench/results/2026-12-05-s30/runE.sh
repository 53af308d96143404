#!/usr/bin/env bash
# Session 30's call E (see prepareE.sh): each build of the failing case alone.
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
for d in carry/cases/*; do
  rm -rf /tmp/one && mkdir -p /tmp/one && cp -r "$d" /tmp/one/
  echo "== $d"; build-gpu/bin/tilec-run-case --cases-in=/tmp/one 2>&1 | grep -E "PASS|FAIL"
done
