#!/usr/bin/env bash
# Makes carry-J/ (from the repository root after scripts/build.sh) for
# runJ.sh (prepared in session 47, not run: no device time was left):
# 1. d = 192, short of cuDNN on every measure (0.81-0.89x at N = 1k, causal
#    0.91x at 4k, timed alternately in call I), in forms that spill
#    nothing: the default (Q in registers, 64-key blocks, two K/V stages),
#    Q in shared memory (--a-in-shared), three K/V stages, both, and
#    80-key blocks (64 + 16);
# 2. rescale_at=next_pv (O rescaled just before the next block's P·V,
#    FlashAttention-3's order; correct on the CPU) against the default at
#    d = 128, 192, 256, and its GPU cases.
set -euo pipefail
carry=carry-J cases=/tmp/s47j/j CASE_FLAGS="--set rescale_at=next_pv"
rm -rf $carry $cases && mkdir -p $carry $cases
. bench/results/carry-lib.sh
comp def "128 192 256" ""
comp nextpv "128 192 256" "--set rescale_at=next_pv"
comp qs 192 "--a-in-shared=true"
comp s3 192 "--pipeline-stages=3"
comp s3qs 192 "--pipeline-stages=3 --a-in-shared=true"
comp n80 192 "--set block_n=80"
for d in 128 192 256; do
  exp d${d}_ragged flash_attention_fwd --set head_dim=$d --size batch=2 --size heads=2 --size seq_q=300 \
    --size seq_k=333 --size amplitude=8
  exp d${d}_causal_nq_gt_nk flash_attention_fwd_causal --set head_dim=$d --size seq_q=600 --size seq_k=45
done
exp d128_counter_causal flash_attention_fwd_causal --set head_dim=128 --persistent --tile-counter \
  --size batch=2 --size heads=2 --size seq_q=400 --size seq_k=390
exp d96_causal flash_attention_fwd_causal --set head_dim=96 --size heads=2 --size seq_q=300 --size seq_k=333
exp d192v128_causal flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --size seq_q=200 \
  --size seq_k=250
exp d128_document flash_attention_fwd_document --set head_dim=128 --size batch=2 --size seq_q=300 \
  --size seq_k=421
exp d128_f16 flash_attention_fwd --set head_dim=128 --set dtype=f16 --size seq_q=130 --size seq_k=140
tar czf $carry/cases.tgz -C $(dirname $cases) j
du -sh $carry
