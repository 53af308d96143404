#!/usr/bin/env bash
# Session 31's call S: a sweep of the schedule knobs that compile without
# spills, on the rows furthest from cuDNN (N = 1k, causal; d = 64).
# d = 64 (default: 128x64 tiles, two warpgroups, TMA rings filled by the
# consumers, 122 registers: two programs an SM): Q·Kᵀ beside the previous
# block's P·V (overlap=on, 125 registers), three ring slots (121), both.
# d = 128 (default: producer warpgroup, ping-pong, overlap, 128x128):
# 64-key blocks (the causal diagonal wastes half as much), overlap off.
# All at 168 registers or fewer, no spills (ptxas). Then runS.sh.
set -euo pipefail
rm -rf carry-S && mkdir -p carry-S
cp ../shared/tools/peer_sdpa.py carry-S/
c() { local dir=$1 d=$2; shift 2; DIMS=$d VARIANTS="dense causal" SETS="$*" bash bench/compile-variants.sh carry-S/$dir > /dev/null; }
c d64-def 64
c d64-ov 64 --set overlap=on
c d64-s3 64 --pipeline-stages=3
c d64-s3ov 64 --pipeline-stages=3 --set overlap=on
c d128-def 128
c d128-bn64 128 --set block_n=64
c d128-noov 128 --set overlap=off
echo "carry-S: $(du -sm carry-S | cut -f1) MiB"
