#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (run from the repository root after
# scripts/build.sh): Q on two slots at d = 128 with O staged in the last V
# block's ring slot (tilegpu-tma-stores, where no staging buffer fits) —
# the tile-counter set with --tile-slots=2 (its d = 128 cases stage O so),
# and the d = 128 forward in the defaults (head) and with --tile-slots=2
# (ps; dense with --persistent).
set -euo pipefail
rm -rf carry-A /tmp/ca && mkdir -p carry-A
COUNTER=1 TILE_SLOTS=2 bash scripts/gpu-cases.sh /tmp/ca
tar czf carry-A/cases.tgz -C /tmp ca
DIMS=128 VARIANTS="dense causal" bash bench/compile-variants.sh carry-A/head
DIMS=128 VARIANTS=dense SETS="--persistent --tile-slots=2" bash bench/compile-variants.sh carry-A/ps
DIMS=128 VARIANTS=causal SETS="--tile-slots=2" bash bench/compile-variants.sh carry-A/ps
rm -f carry-A/*/flash_attention_block_mask_document.*
du -sh carry-A
