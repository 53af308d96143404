#!/usr/bin/env bash
# Sets up (packages, configure, build) and runs every test with ctest.
# GPU tests (label `gpu`) skip with a reason on machines without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
ctest --test-dir "${TILEC_BUILD_DIR:-$root/build}" --output-on-failure -j "$(nproc)"
# Say why the GPU tests were skipped, if they were.
ctest --test-dir "${TILEC_BUILD_DIR:-$root/build}" -L gpu -V 2>&1 | grep -E "^[0-9]+: SKIP" || true
