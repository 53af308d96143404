#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (run from the repository root after
# scripts/build.sh): the first key block's step peeled (peel_first=on) —
# the sm_90a DEFAULTS and COUNTER GPU cases with it (those whose kernels
# overlap; selected to fit the carry), and the forward at d = 96, 128,
# (192, 128) and 256 (dense, causal) with it (new) and without (old: the
# defaults); peer_sdpa.py.
set -euo pipefail
rm -rf carry-A /tmp/pa /tmp/pac /tmp/psel && mkdir -p carry-A /tmp/psel/pa /tmp/psel/pac
FLAGS="--set peel_first=on" DEFAULTS=1 bash scripts/gpu-cases.sh /tmp/pa
FLAGS="--set peel_first=on" COUNTER=1 bash scripts/gpu-cases.sh /tmp/pac
(cd /tmp/pa && cp -r sm90a_ov_* sm90a_d192v128_{fwd_ragged,fwd_causal_ragged,causal_f16_empty_rows,tiny} \
  sm90a_d256_{fwd_ragged,fwd_causal_ragged,causal_f16_bh,gqa3_empty_rows,tiny} \
  sm90a_d192_{fwd_ragged,fwd_causal_ragged,fwd_gqa_ragged} sm90a_d96_{tiny,causal_tiny,causal_f16_empty_rows} \
  sm90a_d80_{causal_ragged,fwd_ragged} /tmp/psel/pa/)
(cd /tmp/pac && cp -r sm90a_d128_{causal_empty_rows,fwd_causal_bh,fwd_causal_ragged,fwd_gqa_ragged,fwd_ragged,tiny} \
  sm90a_d256_fwd_{causal_ragged,ragged} sm90a_d96_fwd_{causal_ragged,ragged} /tmp/psel/pac/)
tar czf carry-A/cases.tgz -C /tmp/psel pa pac
DIMS="96 128 192v128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-A/old
DIMS="96 128 192v128 256" VARIANTS="dense causal" SETS="--set peel_first=on" bash bench/compile-variants.sh carry-A/new
rm -f carry-A/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-A/
du -sh carry-A
