#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (from the repository root after scripts/build.sh):
# session 40's call E (the d = 64 backward with the landed defaults, b-tilec)
# and the d = 64 forward in its default schedule (fdef: 128 x 64 tiles on two
# warpgroups filling their own TMA rings) against 256 x 64 tiles on four
# warpgroups (f256: each K/V block read once for 256 query rows, 16 warps,
# one program an SM as the default's two) and the same with three ring slots
# (f256s3).
set -euo pipefail
rm -rf carry-A && mkdir -p carry-A
DIMS=64 bash bench/compile-bwd.sh carry-A/b-tilec
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh carry-A/fdef
W="--num-warps=16 --set block_m=256 --set row_groups=1"
DIMS=64 VARIANTS="dense causal" SETS="$W" bash bench/compile-variants.sh carry-A/f256
DIMS=64 VARIANTS="dense causal" SETS="$W --pipeline-stages=3" bash bench/compile-variants.sh carry-A/f256s3
rm -f carry-A/f*/flash_attention_block_mask_document.*
cp /work/shared/tools/peer_sdpa.py carry-A/
du -sh carry-A
