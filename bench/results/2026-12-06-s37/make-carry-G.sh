#!/usr/bin/env bash
# Makes carry-G/ for runG.sh (run from the repository root after
# scripts/build.sh with the first-step P·V not issued, issue_if): the
# sm_90a DEFAULTS GPU cases, the d = 128 forward (dense, causal) in the
# new defaults (new) beside call C's PTX of the defaults before (old:
# carry-C/head, kept from make-carry-C), peer_sdpa.py.
set -euo pipefail
rm -rf carry-G /tmp/cg && mkdir -p carry-G
DEFAULTS=1 bash scripts/gpu-cases.sh /tmp/cg
tar czf carry-G/cases.tgz -C /tmp cg
cp -r carry-C/head carry-G/old
DIMS=128 VARIANTS="dense causal" bash bench/compile-variants.sh carry-G/new
rm -f carry-G/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-G/
du -sh carry-G
