#!/usr/bin/env bash
# Sets up (packages, configure, build) and runs every test with ctest.
# GPU tests (label `gpu`) skip with a reason on machines without a GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
ctest --test-dir "${TILEC_BUILD_DIR:-$root/build}" --output-on-failure -j "$(nproc)"
