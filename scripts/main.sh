#!/usr/bin/env bash
# Sets up (packages, configure, build) and runs the main job: the FlashAttention
# kernels built from the DSL into out/, run on the CPU interpreter against a
# double-precision reference, and the hand-written tile programs through tilec-opt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"

mkdir -p "$root/out"
for kernel in flash_attention_fwd flash_attention_fwd_causal; do
  "$build/bin/tilec" --kernel=$kernel --set head_dim=128 -o "$root/out/$kernel.mlir"
  echo "main: tilec --kernel=$kernel -> out/$kernel.mlir"
  "$build/bin/tilec" --kernel=$kernel --set head_dim=128 --run=cpu \
    --size batch=2 --size heads=2 --size seq_q=200 --size seq_k=177
done
for example in "$root"/examples/tile-ir/*.mlir; do
  name=$(basename "$example" .mlir)
  "$build/bin/tilec-opt" "$example" --canonicalize --cse -o "$root/out/$name.mlir"
  echo "main: tilec-opt $example -> out/$name.mlir"
done
