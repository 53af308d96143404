#!/usr/bin/env bash
# Session 52. Makes carry-G/ for runG.sh (after make-carry-F.sh, whose
# carry-F/ runG.sh also reads): GPU cases of the fused d = 128 backward
# with dQ's dot before dK's and its store after (dq_order=dot_before_dk,
# call F's fastest) beside one consumer barrier a step, as the defaults
# now are.
set -euo pipefail
carry=carry-G
cases=/tmp/s52/g
. bench/results/carry-lib.sh
rm -rf $carry $cases && mkdir -p $carry $cases
O="--set head_dim=128"
exp g_ragged flash_attention_bwd_fused $O --size heads=2 --size seq_q=300 --size seq_k=333
exp g_causal flash_attention_bwd_fused_causal $O --size heads=2 --size seq_q=333 --size seq_k=300
exp g_causal_f16 flash_attention_bwd_fused_causal $O --set dtype=f16 --size batch=2 --size heads=3 \
  --size seq_q=190 --size seq_k=260
exp g_gqa3 flash_attention_bwd_fused_gqa $O --set group=3 --size heads=6 --size seq_q=200 --size seq_k=257
exp g_prefix flash_attention_bwd_fused_prefix_lm $O --set prefix=100 --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp g_tiny flash_attention_bwd_fused_causal $O --size seq_q=5 --size seq_k=3
exp g_empty flash_attention_bwd_fused_causal $O --size seq_q=130 --size seq_k=45
exp g_d64_f16 flash_attention_bwd_fused_causal --set dtype=f16 --size heads=6 --size seq_q=300 --size seq_k=333
tar czf $carry/cases.tgz -C /tmp/s52 g
du -sh $carry
