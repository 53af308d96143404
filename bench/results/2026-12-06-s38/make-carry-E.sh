#!/usr/bin/env bash
# Makes carry-E/ for runE.sh (run from the repository root after
# scripts/build.sh): the forward at d = 192, (192, 128) and 256 (dense,
# causal) in the defaults (old: no peel there) and with the first key
# block peeled (peel, --set peel_first=on); peer_sdpa.py.
set -euo pipefail
rm -rf carry-E && mkdir -p carry-E
DIMS="192 192v128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-E/old
DIMS="192 192v128 256" VARIANTS="dense causal" SETS="--set peel_first=on" bash bench/compile-variants.sh carry-E/peel
rm -f carry-E/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-E/
du -sh carry-E
