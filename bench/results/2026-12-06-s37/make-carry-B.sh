#!/usr/bin/env bash
# Makes carry-B/ for runB.sh (run from the repository root after
# scripts/build.sh): the d = 64 forward (dense, causal) in the default
# schedule (head: two warpgroups filling their own TMA rings, 64-key
# blocks) and warp-specialized in FlashAttention-3's manner (producer
# warpgroup, ping-pong, Q·Kᵀ beside the previous P·V, 128-key blocks):
# one program a tile (ws), persistent (wsp), persistent with the tile
# counter and Q on two slots (wspc); the d = 128 causal forward in the
# defaults (head128) and with --tile-slots=2 (ps128); peer_sdpa.py.
set -euo pipefail
rm -rf carry-B && mkdir -p carry-B
WS="--lowering=tilegpu --tma --warp-specialize --ping-pong --set block_n=128 --set overlap=on"
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh carry-B/head
DIMS=64 VARIANTS="dense causal" SETS="$WS" bash bench/compile-variants.sh carry-B/ws
DIMS=64 VARIANTS="dense causal" SETS="$WS --persistent" bash bench/compile-variants.sh carry-B/wsp
DIMS=64 VARIANTS="dense causal" SETS="$WS --persistent --tile-counter --tile-slots=2" bash bench/compile-variants.sh carry-B/wspc
DIMS=128 VARIANTS=causal bash bench/compile-variants.sh carry-B/head128
DIMS=128 VARIANTS=causal SETS="--tile-slots=2" bash bench/compile-variants.sh carry-B/ps128
rm -f carry-B/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-B/
du -sh carry-B
