#!/usr/bin/env bash
# Makes carry-E/ for runE.sh (from the repository root after
# scripts/build.sh): the d = 128 backward sets with the fused kernel one
# program a tile (def), persistent in the static order (pers) and with
# tiles from a counter (ctr); the d = 64 GQA, soft-capping and ALiBi
# forwards, default and on 256-row tiles; causal d = 128 with and without
# the tile counter (session 42's make-carry-B.sh, its call B's parts); the
# Python package's kernels.
set -euo pipefail
carry=carry-E
rm -rf $carry && mkdir -p $carry
DIMS=128 bash bench/compile-bwd.sh $carry/b-def
DIMS=128 FUSED_FLAGS="--persistent" bash bench/compile-bwd.sh $carry/b-pers
DIMS=128 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-ctr
DIMS=64 VARIANTS="gqa softcap alibi" bash bench/compile-variants.sh $carry/vdef
DIMS=64 VARIANTS="gqa softcap alibi" SETS="--num-warps=16 --set block_m=256 --set row_groups=1" \
  bash bench/compile-variants.sh $carry/v256
DIMS=128 VARIANTS="causal" bash bench/compile-variants.sh $carry/fc128
DIMS=128 VARIANTS="causal" SETS="--tile-counter=false" bash bench/compile-variants.sh $carry/fc128s
rm -f $carry/*/flash_attention_block_mask_document.*
# The Python package's kernels with this session's defaults (the causal
# d = 64 fused backward persistent, tiles from a counter).
bash scripts/compile-torch-kernels.sh $carry/torch-ptx > /dev/null
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
