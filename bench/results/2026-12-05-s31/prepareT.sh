#!/usr/bin/env bash
# Session 31's call T: at d = 80 / 112 / 128, d = 64's shape (128x64 tiles on
# two warpgroups, TMA rings filled by the consumers, no producer, overlap off:
# 125-128 registers and 96 KiB of shared memory, so two programs an SM)
# against the default (producer warpgroup, ping-pong, overlap, 128x128; one
# program an SM): whether two resident programs hide the fixed cost of a
# program at N = 1k. Then runT.sh.
set -euo pipefail
rm -rf carry-T && mkdir -p carry-T
cp ../shared/tools/peer_sdpa.py carry-T/
DIMS="80 112 128" VARIANTS="dense causal" bash bench/compile-variants.sh carry-T/def > /dev/null
DIMS="80 112 128" VARIANTS="dense causal" \
  SETS="--num-warps=8 --warp-specialize=false --ping-pong=false --tma --set block_n=64 --set overlap=off" \
  bash bench/compile-variants.sh carry-T/w8 > /dev/null
echo "carry-T: $(du -sm carry-T | cut -f1) MiB"
