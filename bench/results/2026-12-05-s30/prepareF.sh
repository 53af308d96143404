#!/usr/bin/env bash
# Session 30's call F: d = 64 forward schedules next to cuDNN. The default
# (128x64 tiles, TMA rings filled by the consumers, no producer) against
# FlashAttention-3's d = 64 shape on this compiler: a producer warpgroup,
# ping-pong, 128-key blocks, with and without Q·Kᵀ beside the previous
# block's P·V (overlap), and that as a persistent grid (all compile without
# spills, 168 registers). Dense and causal. Then runF.sh.
set -euo pipefail
rm -rf carry-F && mkdir -p carry-F
cp ../shared/tools/peer_sdpa.py carry-F/
ws="--num-warps=8 --lowering=tilegpu --tma --warp-specialize --ping-pong --set block_n=128"
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh carry-F/def > /dev/null
DIMS=64 VARIANTS="dense causal" SETS="$ws" bash bench/compile-variants.sh carry-F/ws > /dev/null
DIMS=64 VARIANTS="dense causal" SETS="$ws --set overlap=on" bash bench/compile-variants.sh carry-F/wsov > /dev/null
DIMS=64 VARIANTS="dense causal" SETS="$ws --set overlap=on --persistent" \
  bash bench/compile-variants.sh carry-F/wsovp > /dev/null
echo "carry-F: $(du -sm carry-F | cut -f1) MiB"
