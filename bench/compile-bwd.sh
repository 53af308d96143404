#!/usr/bin/env bash
# Compiles the backward benchmark sets to PTX + metadata into bench-ptx-bwd/
# (or $1) for `tilec-bench --pass=bwd` on the GPU: per variant and head dim,
# the forward (which makes O and lse), the statistics (prep), dK/dV and dQ,
# and the fused backward's kernel (dQ added atomically) and dQ convert,
# each with its default schedule, reporting ptxas registers and spills.
# FLAGS (optional) go to every dK/dV and dQ kernel's tilec command, e.g.
# FLAGS="--lowering=tilegpu --tma" or FLAGS="--set split_columns=on" (with
# DIMS="96 192": head dims, default "64 128"); FUSED_FLAGS to the fused
# kernel's only (its own parameters: --set dq_order=...). VARIANTS (default
# "dense causal") picks the kernel suffixes: "dense gqa" etc.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx-bwd}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # file kernel [--set ...]
  local file=$1 kernel=$2
  shift 2
  "$tilec" --kernel="$kernel" --arch="$arch" --emit=cubin -o "$out/$file.cubin" "$@" \
    2>&1 | grep -E "registers|spill" | sed "s/^/$file: /"
}
for d in ${DIMS:-64 128}; do
  compile flash_attention_bwd_prep_d$d flash_attention_bwd_prep --set head_dim=$d
  compile flash_attention_bwd_dq_convert_d$d flash_attention_bwd_dq_convert --set head_dim=$d
  for name in ${VARIANTS:-dense causal}; do
    v=_$name
    [ "$name" = dense ] && v=""
    compile flash_attention_fwd${v}_d$d flash_attention_fwd$v --set head_dim=$d
    compile flash_attention_bwd_dkdv${v}_d$d flash_attention_bwd_dkdv$v --set head_dim=$d ${FLAGS:-}
    compile flash_attention_bwd_dq${v}_d$d flash_attention_bwd_dq$v --set head_dim=$d ${FLAGS:-}
    compile flash_attention_bwd_fused${v}_d$d flash_attention_bwd_fused$v --set head_dim=$d ${FLAGS:-} \
      ${FUSED_FLAGS:-}
  done
done
rm -f "$out"/*.cubin
echo "compile-bwd: $(ls "$out"/*.ptx | wc -l) kernels in $out"
