#!/usr/bin/env bash
# Makes carry-B/ for runB.sh (run from the repository root after
# scripts/build.sh, peel_first on by default in the d <= 128 schedule):
# the sm_90a forward cases the new default changes (head dims 72-128 from
# HEADDIMS, packed batches at d = 128 from INFER, the tile-counter set);
# the forward at d = 112 and 128 (dense, causal) without the peel (old), in
# the defaults (new) and in the defaults with Q on two slots (slots2,
# --tile-slots=2; its O staged in the last V block's slot); peer_sdpa.py.
set -euo pipefail
rm -rf carry-B /tmp/cb /tmp/cbh /tmp/cbi /tmp/cbc && mkdir -p carry-B /tmp/cb/b
ARCHS=sm_90a HEADDIMS=1 bash scripts/gpu-cases.sh /tmp/cbh
INFER=1 bash scripts/gpu-cases.sh /tmp/cbi
COUNTER=1 bash scripts/gpu-cases.sh /tmp/cbc
for d in d72_bf16 d80_f16 d96_bf16 d112_f16 d128_64_f16; do
  for k in fwd_causal fwd_gqa3 split_fwd_causal split_fwd_gqa3 varlen_causal split_varlen; do
    [ -d /tmp/cbh/sm90a_${d}_$k ] && cp -r /tmp/cbh/sm90a_${d}_$k /tmp/cb/b/
  done
done
cp -r /tmp/cbi/sm90a_varlen_{d128_f16,causal_d128_f16,gqa3_d128,gqa_d128_f16} /tmp/cb/b/
cp -r /tmp/cbc/sm90a_d128_{causal_empty_rows,fwd_causal_ragged,fwd_gqa_ragged,fwd_ragged,tiny} /tmp/cb/b/
tar czf carry-B/cases.tgz -C /tmp/cb b
DIMS="112 128" VARIANTS="dense causal" SETS="--set peel_first=off" bash bench/compile-variants.sh carry-B/old
DIMS="112 128" VARIANTS="dense causal" bash bench/compile-variants.sh carry-B/new
DIMS="112 128" VARIANTS="dense causal" SETS="--tile-slots=2 --persistent" bash bench/compile-variants.sh carry-B/slots2
rm -f carry-B/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-B/
du -sh carry-B
