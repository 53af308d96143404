#!/usr/bin/env bash
# Sets up (packages, configure, build) and runs the main job: the example tile
# programs through tilec-opt (parse, verify, canonicalize, print) into out/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

mkdir -p "$root/out"
for example in "$root"/examples/tile-ir/*.mlir; do
  name=$(basename "$example" .mlir)
  "$build/bin/tilec-opt" "$example" --canonicalize --cse -o "$root/out/$name.mlir"
  echo "main: $example -> out/$name.mlir ($(grep -c 'tile\.' "$root/out/$name.mlir") tile ops)"
done
