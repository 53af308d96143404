#!/usr/bin/env bash
# Makes carry-D/ for runD.sh (run from the repository root after
# scripts/build.sh): the d = 64 forward (dense, causal) in its default
# schedule (two warpgroups filling their own TMA rings, no overlap; def),
# with the overlapped loop (ov, --set overlap=on) and with it and the first
# key block peeled (ovpeel); peer_sdpa.py.
set -euo pipefail
rm -rf carry-D && mkdir -p carry-D
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh carry-D/def
DIMS=64 VARIANTS="dense causal" SETS="--set overlap=on" bash bench/compile-variants.sh carry-D/ov
DIMS=64 VARIANTS="dense causal" SETS="--set overlap=on --set peel_first=on" bash bench/compile-variants.sh carry-D/ovpeel
rm -f carry-D/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-D/
du -sh carry-D
