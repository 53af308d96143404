#!/usr/bin/env bash
# Makes carry-F/ for runF.sh (run from the repository root after
# scripts/build.sh): the d = 192 forward (dense, causal) and the causal
# (192, 128) one in their defaults (two K/V ring slots; def) and with three
# (s3, --pipeline-stages=3: 193 / 153 KiB of shared memory, spill-free);
# peer_sdpa.py.
set -euo pipefail
rm -rf carry-F && mkdir -p carry-F
DIMS=192 VARIANTS="dense causal" bash bench/compile-variants.sh carry-F/def
DIMS=192 VARIANTS="dense causal" SETS="--pipeline-stages=3" bash bench/compile-variants.sh carry-F/s3
DIMS=192v128 VARIANTS=causal bash bench/compile-variants.sh carry-F/def
DIMS=192v128 VARIANTS=causal SETS="--pipeline-stages=3" bash bench/compile-variants.sh carry-F/s3
rm -f carry-F/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-F/
du -sh carry-F
