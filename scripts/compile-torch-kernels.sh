#!/usr/bin/env bash
# Compiles the kernels python/tilec/attention.py loads into DIR (default
# torch-ptx/): per dtype and head dim, the forward, prep, dK/dV and dQ of
# each variant, dense and packed (varlen), as DIR/KERNEL-DTYPE-dD.ptx + .json
# (tilec --emit=ptx).
#   scripts/compile-torch-kernels.sh [DIR]
# Environment: ARCH (sm_90a), DTYPES ("bf16 f16"), DIMS ("64 128"),
# VARIANTS ("'' causal"), TILEC (build/bin/tilec).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/torch-ptx}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # kernel dtype d
  "$tilec" --kernel="$1" --arch="$arch" --set dtype="$2" --set head_dim="$3" --emit=ptx \
    -o "$out/$1-$2-d$3.ptx"
}
for dtype in ${DTYPES:-bf16 f16}; do
  for d in ${DIMS:-64 128}; do
    compile flash_attention_bwd_prep "$dtype" "$d"
    compile flash_attention_varlen_bwd_prep "$dtype" "$d"
    for v in ${VARIANTS:-"" causal}; do
      suffix=${v:+_$v}
      for kind in fwd bwd_dkdv bwd_dq varlen varlen_bwd_dkdv varlen_bwd_dq; do
        compile flash_attention_$kind$suffix "$dtype" "$d"
      done
    done
  done
done
echo "compile-torch-kernels: $(ls "$out"/*.ptx | wc -l) kernels in $out"
