#!/usr/bin/env bash
# Session 52. Makes carry-F/ for runF.sh (from the repository root after
# scripts/build.sh): GPU cases of the fused d = 128 backward's new default
# (consumer_barriers=one) with a prefix-LM mask that is not dense (call D's
# took the 1024-key default prompt), and the d = 128 backward with dQ's
# share in each of its orders beside one barrier a step, for compare.py
# beside cuDNN.
set -euo pipefail
carry=carry-F
cases=/tmp/s52/f
. bench/results/carry-lib.sh
rm -rf $carry $cases && mkdir -p $carry $cases
DIMS=128 bash bench/compile-bwd.sh $carry/def > /dev/null # dq_order=auto: before_dk
DIMS=128 FUSED_FLAGS="--set dq_order=dot_before_dk" bash bench/compile-bwd.sh $carry/dqdot > /dev/null
DIMS=128 FUSED_FLAGS="--set dq_order=after_dk" bash bench/compile-bwd.sh $carry/dqafter > /dev/null
cp ../shared/tools/peer_sdpa.py $carry/
P="--set prefix=100"
exp pre128_ragged flash_attention_bwd_fused_prefix_lm $P --set head_dim=128 --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp pre128_longq flash_attention_bwd_fused_prefix_lm $P --set head_dim=128 --size heads=2 --size seq_q=333 \
  --size seq_k=300
exp pre128_f16 flash_attention_bwd_fused_prefix_lm $P --set head_dim=128 --set dtype=f16 --size batch=2 \
  --size heads=3 --size seq_q=190 --size seq_k=260
exp pre128_two flash_attention_bwd_fused_prefix_lm $P --set head_dim=128 --set consumer_barriers=two \
  --size heads=2 --size seq_q=300 --size seq_k=333
exp pre64_f16 flash_attention_bwd_fused_prefix_lm $P --set dtype=f16 --size heads=6 --size seq_q=300 \
  --size seq_k=333
exp pre128_dkdv flash_attention_bwd_dkdv_prefix_lm $P --set head_dim=128 --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp pre128_dq flash_attention_bwd_dq_prefix_lm $P --set head_dim=128 --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp pre128_fwd flash_attention_fwd_prefix_lm $P --set head_dim=128 --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp one_gqa5_f16 flash_attention_bwd_fused_gqa --set head_dim=128 --set group=5 --set dtype=f16 --size heads=5 \
  --size batch=2 --size seq_q=130 --size seq_k=270
exp one_tiny flash_attention_bwd_fused_causal --set head_dim=128 --size seq_q=5 --size seq_k=3
exp one_empty flash_attention_bwd_fused_causal --set head_dim=128 --size seq_q=130 --size seq_k=45
tar czf $carry/cases.tgz -C /tmp/s52 f
du -sh $carry
