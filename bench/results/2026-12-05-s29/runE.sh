#!/usr/bin/env bash
# Session 29's call E: why sm90a_row_groups2_fwd_d128 fails (call AB: O
# normalized error 0.75, lse right). Its case three times, the kernel
# compiled as in the case (cur), with O staged for the TMA store without
# stmatrix (nomatrix.patch: b652ca9 undone) and without TMA at all
# (--tma=false: no TMA store, plain stores). Prepare: `prepare.sh E`.
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
for d in carry/cases/*; do
  rm -rf /tmp/one && mkdir -p /tmp/one && cp -r "$d" /tmp/one/
  echo "== $d"; build-gpu/bin/tilec-run-case --cases-in=/tmp/one 2>&1 | grep -E "PASS|FAIL"
done
