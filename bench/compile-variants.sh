#!/usr/bin/env bash
# Compiles the forward kernel of every attention variant with
# ../shared/tools/peer_flex.py's constants (window 1024, cap 20, prefix 1024,
# GQA group 4, ALiBi over H = 2048 / d heads) into bench-ptx-variants/ (or
# $1), for bench/variants.py next to peer_flex.py on the GPU machine. DIMS
# lists head dims; "192v128" is head_dim 192 with head_dim_v 128. SETS adds
# parameters to every kernel (SETS="--set split_columns=on"); VARIANTS picks
# the variants (as variants.py names them: "dense causal ..."; default: all).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx-variants}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
for spec in ${DIMS:-128}; do
  d=${spec%v*} dv=${spec#*v}
  heads=$((2048 / dv))
  for v in ${VARIANTS:-dense causal sliding_window softcap alibi gqa prefix_lm sliding_window_softcap document relative_bias_table}; do
    [ "$v" = dense ] && v=""
    case $v in
      sliding_window) sets=(--set window=1024) ;;
      softcap) sets=(--set cap=20) ;;
      alibi) sets=(--set heads=$heads) ;;
      gqa) sets=(--set group=4) ;;
      prefix_lm) sets=(--set prefix=1024) ;;
      sliding_window_softcap) sets=(--set window=1024 --set cap=20) ;;
      relative_bias_table) sets=(--set max_distance=128) ;;
      *) sets=() ;;
    esac
    name=flash_attention_fwd${v:+_$v}
    "$tilec" --kernel=$name --arch="$arch" --set head_dim=$d --set head_dim_v=$dv "${sets[@]}" \
      ${SETS:-} --emit=ptx -o "$out/$name-d$spec.ptx"
  done
done
"$tilec" --kernel=flash_attention_block_mask_document --arch="$arch" --emit=ptx \
  -o "$out/flash_attention_block_mask_document.ptx"
echo "compile-variants: $(ls "$out"/*.ptx | wc -l) kernels in $out"
