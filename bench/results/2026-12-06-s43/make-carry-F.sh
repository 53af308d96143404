#!/usr/bin/env bash
# Makes carry-F/ for runF.sh (from the repository root after
# scripts/build.sh): the backward's query ranges by bisection
# (query_ranges=bisect, KeyRange::monotone) as GPU cases — the dK/dV and
# fused kernels of the masked variants and GQA, sm_90a, packed — and the
# d = 64 and 128 backward sets with the fused kernel scanning (old, the
# default) and bisecting (new). Prepared in session 43, not run (no device
# time left).
set -euo pipefail
carry=carry-F tmp=/tmp/s43f
rm -rf $carry $tmp && mkdir -p $carry $tmp/c
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a --set query_ranges=bisect "$@" \
    --export-case=$tmp/c/$name > /dev/null
}
for v in _causal _sliding_window _prefix_lm _gqa; do
  for part in dkdv fused; do
    exp ${part}${v}_ragged flash_attention_bwd_$part$v --size seq_q=150 --size seq_k=201
    exp ${part}${v}_empty_rows flash_attention_bwd_$part$v --size seq_q=130 --size seq_k=45
    exp ${part}${v}_d128 flash_attention_bwd_$part$v --set head_dim=128 --size heads=2 \
      --size seq_q=300 --size seq_k=333
  done
done
exp fused_causal_tiny flash_attention_bwd_fused_causal --size seq_q=5 --size seq_k=3
exp varlen_dkdv_causal flash_attention_varlen_bwd_dkdv_causal --size batch=4 --size heads=2 \
  --size seq_q=150 --size seq_k=201
exp varlen_dkdv_gqa3_d128 flash_attention_varlen_bwd_dkdv_gqa --set head_dim=128 --set group=3 \
  --size batch=3 --size heads=6 --size seq_q=77 --size seq_k=130
tar czf $carry/cases.tgz -C $tmp c
DIMS="64 128" bash bench/compile-bwd.sh $carry/b-old > /dev/null
DIMS="64 128" FUSED_FLAGS="--set query_ranges=bisect" bash bench/compile-bwd.sh $carry/b-new > /dev/null
du -sh $carry
