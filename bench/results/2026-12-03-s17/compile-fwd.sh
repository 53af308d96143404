#!/usr/bin/env bash
# session 17: the forward kernels the wgmma step descriptors touch (tilegpu) and the defaults, into $1
set -euo pipefail
out=$1; mkdir -p $out
tilec=build/bin/tilec
c() { local file=$1 kernel=$2; shift 2
  $tilec --kernel=$kernel --arch=sm_90a --emit=cubin -o $out/$file.cubin "$@" 2>&1 | grep -E "spill" | sed "s/^/$file: /"; }
for f in flash_attention_fwd flash_attention_fwd_causal; do
  for d in 64 128 256; do c ${f}_d${d}_default $f --set head_dim=$d; done
  for d in 128 256; do c ${f}_d${d}_persistent $f --set head_dim=$d --persistent; done
  c ${f}_d128_m128_n128_w8_g1_pp_ov $f --num-warps=8 --set head_dim=128 --set row_groups=1 --set block_n=128 --lowering=tilegpu --tma --warp-specialize --ping-pong --set overlap=on
  c ${f}_d128_m128_n64_w8_g1_qs_pp_ov $f --num-warps=8 --set head_dim=128 --set row_groups=1 --set block_m=128 --set block_n=64 --a-in-shared --lowering=tilegpu --tma --warp-specialize --ping-pong --set overlap=on
done
rm -f $out/*.cubin
