#!/usr/bin/env bash
# Makes carry-F/ for runF.sh (run from the repository root after
# scripts/build.sh, at the commit that makes the new defaults): the
# sm_90a DEFAULTS cases (the new causal d = 80/96 cases among them) and
# the forward at d = 80, 96, 128 (dense and causal) in the defaults;
# peer_sdpa.py.
set -euo pipefail
rm -rf carry-F /tmp/cf && mkdir -p carry-F
DEFAULTS=1 bash scripts/gpu-cases.sh /tmp/cf
tar czf carry-F/cases.tgz -C /tmp cf
DIMS="80 96 128" VARIANTS="dense causal" bash bench/compile-variants.sh carry-F/head
rm -f carry-F/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-F/
du -sh carry-F
