#!/usr/bin/env bash
# Makes carry-P2/ for runP.sh (run from the repository root after
# scripts/build.sh): the Python package's kernels and the d = 128 forward
# (dense, causal) in the defaults, and causal in the static tile order
# (--tile-counter=false: no counter in the module).
set -euo pipefail
rm -rf carry-P2 && mkdir -p carry-P2
bash scripts/compile-torch-kernels.sh carry-P2/torch-ptx > /dev/null
DIMS=128 VARIANTS="dense causal" bash bench/compile-variants.sh carry-P2/head
DIMS=128 VARIANTS=causal SETS="--tile-counter=false" bash bench/compile-variants.sh carry-P2/static
rm -f carry-P2/*/flash_attention_block_mask_document.*
du -sh carry-P2
