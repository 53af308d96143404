#!/usr/bin/env bash
# Makes carry-N/ for runN.sh (from the repository root after
# scripts/build.sh): the new defaults' GPU cases — rescale_at=next_pv at
# d = 192 on every forward variant (dense, causal, masks, score modifiers,
# GQA, document lists, packed batches), windowed soft-capping on the fast
# schedules at d = 64 to 256 — ragged, N_q > N_k with rows that see no key,
# f16.
set -euo pipefail
carry=carry-N cases=/tmp/s48/n
rm -rf $carry $cases && mkdir -p $carry $cases
. bench/results/carry-lib.sh
R="--size batch=2 --size heads=2 --size seq_q=300 --size seq_k=333"
for v in fwd fwd_causal fwd_alibi fwd_prefix_lm fwd_softcap fwd_document; do
  # shellcheck disable=SC2086
  exp d192_$v flash_attention_$v --set head_dim=192 $R
done
exp d192_fwd_gqa flash_attention_fwd_gqa --set head_dim=192 --size heads=6 --size seq_q=300 --size seq_k=333
exp d192_window flash_attention_fwd_sliding_window --set head_dim=192 --set window=100 --size seq_q=600 \
  --size seq_k=45
exp d192_wsc flash_attention_fwd_sliding_window_softcap --set head_dim=192 --set window=100 --set cap=10 \
  --size seq_q=500 --size seq_k=520
exp d192_causal_f16 flash_attention_fwd_causal --set head_dim=192 --set dtype=f16 --size seq_q=257 \
  --size seq_k=390
exp d192_varlen flash_attention_varlen --set head_dim=192
exp d192_varlen_causal flash_attention_varlen_causal --set head_dim=192
exp d192_persistent flash_attention_fwd_causal --set head_dim=192 --persistent --size batch=2 --size seq_q=400 \
  --size seq_k=390
for d in 80 96 256; do
  exp wsc${d} flash_attention_fwd_sliding_window_softcap --set head_dim=$d --set window=64 --set cap=5 \
    --size seq_q=600 --size seq_k=45
done
exp wscv64 flash_attention_varlen_sliding_window_softcap --set head_dim=64 --set window=70
tar czf $carry/cases.tgz -C $(dirname $cases) n
du -sh $carry
