#!/usr/bin/env bash
# Sets up (packages, configure, build) and runs the main job: FlashAttention
# built from the DSL, checked on the CPU interpreter against a double-precision
# reference, compiled to PTX (and a cubin, where ptxas is installed) with its
# launch metadata into out/, and run on the GPU where there is one.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
tilec="$build/bin/tilec"
mkdir -p "$root/out"

for kernel in flash_attention_fwd flash_attention_fwd_causal; do
  echo "== $kernel (head_dim 128)"
  "$tilec" --kernel=$kernel --set head_dim=128 -o "$root/out/$kernel.mlir"
  "$tilec" --kernel=$kernel --set head_dim=128 --run=cpu \
    --size batch=2 --size heads=2 --size seq_q=200 --size seq_k=177
  if command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ]; then
    "$tilec" --kernel=$kernel --set head_dim=128 --assume-aligned --arch=sm_80 --emit=cubin --pass-timing \
      -o "$root/out/$kernel.cubin" 2>&1 | grep -E "done after|registers|spill"
  else
    "$tilec" --kernel=$kernel --set head_dim=128 --assume-aligned --arch=sm_80 --emit=ptx -o "$root/out/$kernel.ptx"
  fi
  # Hopper (H100/H200): the same kernel with wgmma.
  "$tilec" --kernel=$kernel --set head_dim=128 --arch=sm_90a --emit=ptx -o "$root/out/$kernel.sm_90a.ptx"
  echo "   PTX and launch metadata: out/$kernel.ptx, out/$kernel.json (sm_80);" \
    "out/$kernel.sm_90a.ptx, out/$kernel.sm_90a.json (sm_90a, wgmma)"
  "$tilec" --kernel=$kernel --set head_dim=128 --assume-aligned --export-case="$root/out/case-$kernel" \
    --size batch=2 --size heads=2 --size seq_q=200 --size seq_k=177 >/dev/null
  "$build/bin/tilec-run-case" "$root/out/case-$kernel" || [ $? -eq 77 ]
done
for example in "$root"/examples/tile-ir/*.mlir; do
  name=$(basename "$example" .mlir)
  "$build/bin/tilec-opt" "$example" --canonicalize --cse -o "$root/out/$name.mlir"
done
echo "main: done; outputs in out/"
