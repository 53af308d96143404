#!/usr/bin/env bash
# Makes carry-B/ for runB.sh (from the repository root after scripts/build.sh):
# the new seq_schedule=long GPU cases (of DEFAULTS=1), the Python package's
# kernels (compile-torch-kernels.sh: d = 64 dense gets a -long.ptx), and the d = 64 forward in both schedules for the grid.
set -euo pipefail
rm -rf carry-B && mkdir -p carry-B
DEFAULTS=1 bash scripts/gpu-cases.sh carry-B/cases > /dev/null
# (The whole set is over the carry's 64 MiB: the long cases alone.)
mkdir -p carry-B/long && mv carry-B/cases/sm90a_long_* carry-B/long/ && rm -rf carry-B/cases
bash scripts/compile-torch-kernels.sh carry-B/torch-ptx > /dev/null
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh carry-B/fdef
DIMS=64 VARIANTS="dense" SETS="--set seq_schedule=long" bash bench/compile-variants.sh carry-B/flong
# The d = 64 variants without a mask, default and on 256-row tiles.
DIMS=64 VARIANTS="gqa softcap alibi" bash bench/compile-variants.sh carry-B/vdef
DIMS=64 VARIANTS="gqa softcap alibi" SETS="--num-warps=16 --set block_m=256 --set row_groups=1" \
  bash bench/compile-variants.sh carry-B/v256
# Causal d = 128 (persistent, tiles from a counter) and the same in the
# static order, for the B = 64, N = 1k row call A found slow.
DIMS=128 VARIANTS="causal" bash bench/compile-variants.sh carry-B/fc128
DIMS=128 VARIANTS="causal" SETS="--tile-counter=false" bash bench/compile-variants.sh carry-B/fc128s
rm -f carry-B/f*/flash_attention_block_mask_document.*
cp /work/shared/tools/peer_sdpa.py carry-B/
du -sh carry-B
