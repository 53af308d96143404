#!/usr/bin/env bash
# Session 50 (from session 49's, d = 64 timed too). Makes carry-B/ for runB.sh (from the repository root after scripts/build.sh):
# the d = 128 backward set (bench/compile-bwd.sh) as it is (old) and with
# --f32-staging-bytes=32 (new: dQ staged in 32-byte column blocks), and GPU
# cases of the fused kernels with the flag (d = 64 and 128; soft-capping's
# and the window's fused kernels take no TMA reduction: controls).
set -euo pipefail
carry=carry-B cases=/tmp/s50/b CASE_FLAGS="--f32-staging-bytes=32"
rm -rf $carry $cases && mkdir -p $carry $cases
DIMS="64 128" bash bench/compile-bwd.sh $carry/old > /dev/null
DIMS="64 128" FLAGS="--f32-staging-bytes=32" bash bench/compile-bwd.sh $carry/new > /dev/null
. bench/results/carry-lib.sh
S="--size batch=1 --size heads=2"
# shellcheck disable=SC2086
{
  exp d128_ragged flash_attention_bwd_fused --set head_dim=128 $S --size seq_q=300 --size seq_k=333
  exp d128_causal flash_attention_bwd_fused_causal --set head_dim=128 $S --size seq_q=333 --size seq_k=300
  exp d64_ragged flash_attention_bwd_fused --set head_dim=64 $S --size seq_q=300 --size seq_k=333
  exp d64_causal_f16 flash_attention_bwd_fused_causal --set head_dim=64 --set dtype=f16 $S \
    --size seq_q=520 --size seq_k=390
  exp d128_gqa flash_attention_bwd_fused_gqa --set head_dim=128 --set group=3 --size heads=6 \
    --size seq_q=200 --size seq_k=257
  exp d128_softcap flash_attention_bwd_fused_softcap --set head_dim=128 $S --size seq_q=200 --size seq_k=150
  exp d64_window flash_attention_bwd_fused_sliding_window --set head_dim=64 --set window=100 $S \
    --size seq_q=300 --size seq_k=333
}
# The fused kernels' lse read at the top of the step (--set statistics=lse_top:
# its loads above the scores' wgmmas; at d = 128 the default reads it after
# them), on the old set (lse) and on the new (both), and cases of both kinds.
# (hoist_lse.py, the same change as a PTX edit, gives the same SASS.)
DIMS="64 128" FUSED_FLAGS="--set statistics=lse_top" bash bench/compile-bwd.sh $carry/lse > /dev/null
DIMS="64 128" FLAGS="--f32-staging-bytes=32" FUSED_FLAGS="--set statistics=lse_top" \
  bash bench/compile-bwd.sh $carry/both > /dev/null
for f in "" "--f32-staging-bytes=32"; do
  CASE_FLAGS="$f --set statistics=lse_top"
  n=lse; [ -n "$f" ] && n=both
  exp ${n}128_ragged flash_attention_bwd_fused --set head_dim=128 $S --size seq_q=300 --size seq_k=333
  exp ${n}128_causal flash_attention_bwd_fused_causal --set head_dim=128 $S --size seq_q=333 --size seq_k=300
  exp ${n}128_gqa flash_attention_bwd_fused_gqa --set head_dim=128 --set group=3 --size heads=6 \
    --size seq_q=200 --size seq_k=257
done
# (192, 128) forwards with rescale_at=next_pv (its default since session 49)
# beside what session 49 did not run: a GQA group of 3, soft-capping, ALiBi.
CASE_FLAGS=""
V="--set head_dim=192 --set head_dim_v=128"
exp v192_gqa3 flash_attention_fwd_gqa $V --set group=3 --size heads=6 --size seq_q=300 --size seq_k=333
exp v192_softcap flash_attention_fwd_softcap $V $S --size seq_q=300 --size seq_k=333
exp v192_alibi flash_attention_fwd_alibi $V $S --size seq_q=333 --size seq_k=300
tar czf $carry/cases.tgz -C /tmp/s50 b
du -sh $carry
