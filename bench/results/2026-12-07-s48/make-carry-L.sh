#!/usr/bin/env bash
# Makes carry-L/ for runL.sh (from the repository root after
# scripts/build.sh): after call K, d = 192 in the forms that took its
# waits off the softmax (rescale_at=next_pv; --keep-work-above-waits, the
# compiler's form of call K's pin.py edit) and next_pv with session 47's
# spill-free d = 192 forms (Q in shared memory, three K/V stages, 80-key
# blocks); d = 128's default against next_pv again; GPU cases of
# --keep-work-above-waits.
set -euo pipefail
carry=carry-L cases=/tmp/s48/l CASE_FLAGS="--keep-work-above-waits"
rm -rf $carry $cases && mkdir -p $carry $cases
. bench/results/carry-lib.sh
comp def "128 192" ""
comp nextpv "128 192" "--set rescale_at=next_pv"
comp kw 192 "--keep-work-above-waits"
comp npqs 192 "--set rescale_at=next_pv --a-in-shared=true"
comp nps3 192 "--set rescale_at=next_pv --pipeline-stages=3"
comp np80 192 "--set rescale_at=next_pv --set block_n=80"
for d in 128 192 256; do
  exp d${d}_ragged flash_attention_fwd --set head_dim=$d --size batch=2 --size heads=2 --size seq_q=300 \
    --size seq_k=333 --size amplitude=8
  exp d${d}_causal flash_attention_fwd_causal --set head_dim=$d --size heads=2 --size seq_q=520 --size seq_k=700
done
exp d192_nq_gt_nk flash_attention_fwd_causal --set head_dim=192 --size seq_q=600 --size seq_k=45
exp d192v128_causal flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --size seq_q=200 \
  --size seq_k=250
exp d192_window flash_attention_fwd_sliding_window --set head_dim=192 --size seq_q=300 --size seq_k=333
exp d128_counter_causal flash_attention_fwd_causal --set head_dim=128 --persistent --tile-counter \
  --size batch=2 --size heads=2 --size seq_q=400 --size seq_k=390
CASE_FLAGS="--set rescale_at=next_pv --a-in-shared=true" exp d192_npqs_causal flash_attention_fwd_causal \
  --set head_dim=192 --size heads=2 --size seq_q=520 --size seq_k=700
CASE_FLAGS="--set rescale_at=next_pv --pipeline-stages=3" exp d192_nps3_ragged flash_attention_fwd \
  --set head_dim=192 --size seq_q=300 --size seq_k=333
CASE_FLAGS="--set rescale_at=next_pv --set block_n=80" exp d192_np80_causal flash_attention_fwd_causal \
  --set head_dim=192 --size seq_q=300 --size seq_k=333
tar czf $carry/cases.tgz -C $(dirname $cases) l
du -sh $carry
