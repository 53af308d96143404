#!/usr/bin/env bash
# Makes carry-M/ for runM.sh (from the repository root after
# scripts/build.sh, with carry-L/ from make-carry-L.sh, whose call did not
# run for want of a device): carry-L's sets and cases, and windowed
# soft-capping on the fast sm_90a schedules (no longer heavyScores): its
# forward at d = 64, 128, 256 against the heavier schedule it had
# (wsc-old: compiled from the commit before, into /tmp/s48m/wsc-old by
# hand), and its GPU cases.
set -euo pipefail
carry=carry-M cases=/tmp/s48/m
rm -rf $carry $cases && mkdir -p $carry $cases
cp -r carry-L/. $carry/
. bench/results/carry-lib.sh
VARIANTS="sliding_window_softcap" comp wsc-new "64 128 256" ""
cp -r /tmp/s48m/wsc-old $carry/wsc-old
K=flash_attention_fwd_sliding_window_softcap
for d in 64 128 192 256; do
  exp wsc${d}_ragged $K --set head_dim=$d --size batch=2 --size heads=2 --size seq_q=300 --size seq_k=333 \
    --set window=100 --set cap=20
done
exp wsc96_nq_gt_nk $K --set head_dim=96 --size seq_q=600 --size seq_k=45 --set window=64 --set cap=5
exp wsc128_nq_gt_nk $K --set head_dim=128 --size seq_q=600 --size seq_k=45 --set window=64 --set cap=5
exp wsc128_long $K --set head_dim=128 --size seq_q=1100 --size seq_k=1300 --set window=256 --set cap=30
exp wsc64_f16 $K --set head_dim=64 --set dtype=f16 --size seq_q=257 --size seq_k=390 --set window=70
exp wsc256_nq_lt_nk $K --set head_dim=256 --size seq_q=130 --size seq_k=700 --set window=500
exp wsc192v128 $K --set head_dim=192 --set head_dim_v=128 --size seq_q=200 --size seq_k=250 --set window=90
exp wscv_ragged flash_attention_varlen_sliding_window_softcap --set head_dim=128 --set window=100
tar czf $carry/cases-m.tgz -C $(dirname $cases) m
du -sh $carry
