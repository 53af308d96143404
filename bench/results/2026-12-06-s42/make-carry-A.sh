#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (from the repository root after scripts/build.sh):
# the forward defaults at d = 64, 128, 256 (fdef, dense and causal) for the
# batch-scaling probe at N = 1k, and the d = 64 dense forward on 256 x 64
# tiles (f256: --num-warps=16 --set block_m=256 --set row_groups=1).
set -euo pipefail
rm -rf carry-A && mkdir -p carry-A
DIMS="64 128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-A/fdef
DIMS=64 VARIANTS="dense" SETS="--num-warps=16 --set block_m=256 --set row_groups=1" \
  bash bench/compile-variants.sh carry-A/f256
rm -f carry-A/f*/flash_attention_block_mask_document.*
cp /work/shared/tools/peer_sdpa.py carry-A/
du -sh carry-A
