#!/usr/bin/env bash
# Compiles the kernels python/tilec/attention.py loads into DIR (default
# torch-ptx/): per dtype and head dim, the forward, prep, dK/dV and dQ of
# each variant, dense and packed (varlen), and the fused backward (fused +
# dq_convert, dense only), as DIR/KERNEL-DTYPE-dD.ptx + .json, and the
# forward in the long sequences' schedule where it has one (-long.ptx)
# (tilec --emit=ptx; DIMS entries DvDV, e.g. 192v128, give V and O a head
# dim of their own: KERNEL-DTYPE-d192v128.ptx).
#   scripts/compile-torch-kernels.sh [DIR]
# Block-mask variants (document) also get DIR/flash_attention_block_mask*_V.ptx.
# Environment: ARCH (sm_90a), DTYPES ("bf16 f16"), DIMS ("64 128"),
# VARIANTS ("dense causal document"; dense: the kernels without a suffix),
# TILEC (build/bin/tilec).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/torch-ptx}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # kernel dtype dims (D, or DvDV: head_dim D, head_dim_v DV)
  local d=${3%v*} dv=${3#*v}
  "$tilec" --kernel="$1" --arch="$arch" --set dtype="$2" --set head_dim="$d" \
    --set head_dim_v="$dv" --emit=ptx -o "$out/$1-$2-d$3.ptx"
}
# The forward again in the long sequences' schedule (seq_schedule=long), as
# KERNEL-DTYPE-dD-long.ptx, where it differs from the default (the launcher
# takes it from N = 4k with forward="auto").
compile_long() { # kernel dtype dims
  local d=${3%v*} dv=${3#*v} file="$out/$1-$2-d$3-long"
  "$tilec" --kernel="$1" --arch="$arch" --set dtype="$2" --set head_dim="$d" \
    --set head_dim_v="$dv" --set seq_schedule=long --emit=ptx -o "$file.ptx"
  if cmp -s "$file.ptx" "$out/$1-$2-d$3.ptx"; then
    rm -f "$file.ptx" "$file.json"
  fi
}
registered=$("$tilec" --list-kernels | grep -E '^[a-z]' | cut -d' ' -f1)
has() { echo "$registered" | grep -qx "$1"; }
for dtype in ${DTYPES:-bf16 f16}; do
  for d in ${DIMS:-64 128}; do
    compile flash_attention_bwd_prep "$dtype" "$d"
    compile flash_attention_varlen_bwd_prep "$dtype" "$d"
    compile flash_attention_bwd_dq_convert "$dtype" "$d"
    for v in ${VARIANTS:-dense causal document}; do
      [ "$v" = dense ] && v=""
      suffix=${v:+_$v}
      # (Variants with runtime inputs have no packed kernels.)
      for kind in fwd bwd_dkdv bwd_dq bwd_fused varlen varlen_bwd_dkdv varlen_bwd_dq; do
        if has flash_attention_$kind$suffix; then
          compile flash_attention_$kind$suffix "$dtype" "$d"
          if [ $kind = fwd ]; then compile_long flash_attention_$kind$suffix "$dtype" "$d"; fi
        fi
      done
    done
  done
done
# A block-mask variant's block masks: one kernel for every dtype and head dim.
for v in ${VARIANTS:-dense causal document}; do
  [ "$v" = dense ] && continue
  for kernel in flash_attention_block_mask_$v flash_attention_block_mask_by_keys_$v; do
    if has "$kernel"; then
      "$tilec" --kernel="$kernel" --arch="$arch" --emit=ptx -o "$out/$kernel.ptx"
    fi
  done
done
echo "compile-torch-kernels: $(ls "$out"/*.ptx | wc -l) kernels in $out"
