#!/usr/bin/env bash
# Makes carry-D/ for runD.sh: call C again with the last program converting
# 64 KiB of dq_acc a step (b-lp2; call C converted one 128-row block a step):
# its GPU cases, and the backward sets at d = 64 and 128 beside the landed
# defaults (b-base).
set -euo pipefail
rm -rf carry-D /tmp/s41d && mkdir -p carry-D /tmp/s41d/c
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a --set dq_convert=last_program "$@" \
    --export-case=/tmp/s41d/c/$name > /dev/null
}
for d in 64 128; do
  exp lp_fused_d${d}_ragged flash_attention_bwd_fused --set head_dim=$d \
    --size batch=2 --size heads=3 --size seq_q=300 --size seq_k=333
  exp lp_fused_causal_d${d}_ragged flash_attention_bwd_fused_causal --set head_dim=$d \
    --size heads=2 --size seq_q=200 --size seq_k=230
  exp lp_fused_causal_d${d}_f16 flash_attention_bwd_fused_causal --set head_dim=$d \
    --set dtype=f16 --size seq_q=256 --size seq_k=200
  exp lp_fused_gqa3_d$d flash_attention_bwd_fused_gqa --set head_dim=$d --set group=3 \
    --size heads=6 --size seq_q=77 --size seq_k=130
  exp lp_fused_prefix_lm_d${d}_p40 flash_attention_bwd_fused_prefix_lm --set head_dim=$d \
    --set prefix=40 --size seq_q=150 --size seq_k=130
  exp lp_fused_causal_d${d}_tiny flash_attention_bwd_fused_causal --set head_dim=$d \
    --size seq_q=5 --size seq_k=7
done
tar czf carry-D/cases.tgz -C /tmp/s41d c
DIMS="64 128" bash bench/compile-bwd.sh carry-D/b-base
DIMS="64 128" FUSED_FLAGS="--set dq_convert=last_program" bash bench/compile-bwd.sh carry-D/b-lp2
cp /work/shared/tools/peer_sdpa.py carry-D/
du -sh carry-D
