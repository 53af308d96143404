#!/usr/bin/env bash
# Makes carry-V/ for runV.sh (run from the repository root after
# scripts/build.sh): the persistent GPU cases with the new defaults
# (COUNTER=1 NO_COUNTER=1: --persistent only, so causal d = 128 and 96 take
# the counter by default, and d = 96 causal Q on two slots), and causal
# d = 80 and 112 in the defaults (one program a tile) and in pcs
# (--persistent --tile-counter --tile-slots=2, d = 96's new default);
# peer_sdpa.py.
set -euo pipefail
rm -rf carry-V /tmp/cv && mkdir -p carry-V
COUNTER=1 NO_COUNTER=1 bash scripts/gpu-cases.sh /tmp/cv
tar czf carry-V/cases.tgz -C /tmp cv
DIMS="80 112" VARIANTS=causal bash bench/compile-variants.sh carry-V/head
DIMS="80 112" VARIANTS=causal SETS="--persistent --tile-counter --tile-slots=2" bash bench/compile-variants.sh carry-V/pcs
rm -f carry-V/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-V/
du -sh carry-V
