#!/usr/bin/env bash
# Makes carry-O/ for runO.sh (from the repository root after
# scripts/build.sh): the forward grid with session 48's defaults (d = 64,
# 96, 128, 192, 256) and (192, 128) with rescale_at=next_pv against its
# default, for bench/ab_cudnn.py; (192, 128)'s next_pv GPU cases.
set -euo pipefail
carry=carry-O cases=/tmp/s48/o CASE_FLAGS="--set rescale_at=next_pv"
rm -rf $carry $cases && mkdir -p $carry $cases
. bench/results/carry-lib.sh
comp def "64 96 128 192 256 192v128" ""
comp nextpv "192v128" "--set rescale_at=next_pv"
V="--set head_dim=192 --set head_dim_v=128"
# shellcheck disable=SC2086
{
  exp v128_ragged flash_attention_fwd $V --size batch=2 --size heads=2 --size seq_q=300 --size seq_k=333
  exp v128_nq_gt_nk flash_attention_fwd_causal $V --size seq_q=600 --size seq_k=45
  exp v128_window flash_attention_fwd_sliding_window $V --set window=100 --size seq_q=300 --size seq_k=333
}
tar czf $carry/cases.tgz -C $(dirname $cases) o
du -sh $carry
