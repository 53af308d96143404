#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (from the repository root after
# scripts/build.sh): session 48's call O (the forward grid with its defaults,
# (192, 128) with rescale_at=next_pv and its GPU cases), plus the d = 128
# backward set (bench/compile-bwd.sh), and with the fused kernel's dQ after
# dK's dot (after_dk), FlashAttention-3's order (dot_before_dk) and three
# ring slots (st3); peer_sdpa.py for the peers' backward.
set -euo pipefail
bash bench/results/2026-12-07-s48/make-carry-O.sh
carry=carry-A
rm -rf $carry && mkdir -p $carry
DIMS=128 bash bench/compile-bwd.sh $carry/bwd > /dev/null
for o in after_dk dot_before_dk; do
  DIMS=128 FUSED_FLAGS="--set dq_order=$o" bash bench/compile-bwd.sh $carry/$o > /dev/null
done
DIMS=128 FUSED_FLAGS="--pipeline-stages=3" bash bench/compile-bwd.sh $carry/st3 > /dev/null
cp ../shared/tools/peer_sdpa.py $carry/
du -sh carry-O $carry
# The fused kernel carrying dK's wgmma across its loops' back edges
# (carry_dk.py's edit of dq_order=dot_before_dk's PTX), with two ring slots
# (carry) and three (carry3); its GPU cases in carry-A/cases.tgz.
edit() { # DIR: the fused d = 128 kernels of DIR edited in place
  for f in $1/flash_attention_bwd_fused_d128.ptx $1/flash_attention_bwd_fused_causal_d128.ptx; do
    python3 bench/results/2026-12-07-s49/carry_dk.py $f $f.new > /dev/null && mv $f.new $f
  done
}
cp -r $carry/dot_before_dk $carry/carry && edit $carry/carry
DIMS=128 FUSED_FLAGS="--set dq_order=dot_before_dk --pipeline-stages=3" bash bench/compile-bwd.sh \
  $carry/carry3 > /dev/null
edit $carry/carry3
cases=/tmp/s49/c CASE_FLAGS="--set head_dim=128 --set dq_order=dot_before_dk"
rm -rf $cases && mkdir -p $cases
. bench/results/carry-lib.sh
# shellcheck disable=SC2086
{
  exp ragged flash_attention_bwd_fused --size batch=2 --size heads=2 --size seq_q=300 --size seq_k=333
  exp causal_ragged flash_attention_bwd_fused_causal --size batch=2 --size heads=2 --size seq_q=333 \
    --size seq_k=300
  exp causal_nq_lt_nk flash_attention_bwd_fused_causal --size seq_q=100 --size seq_k=700
  exp causal_nq_gt_nk flash_attention_bwd_fused_causal --size seq_q=600 --size seq_k=45
  exp dense_short_q flash_attention_bwd_fused --size seq_q=45 --size seq_k=600
  exp causal_f16 flash_attention_bwd_fused_causal --set dtype=f16 --size seq_q=520 \
    --size seq_k=700
  exp long flash_attention_bwd_fused --size seq_q=900 --size seq_k=1000
  CASE_FLAGS="$CASE_FLAGS --pipeline-stages=3"
  exp st3_ragged flash_attention_bwd_fused --size heads=2 --size seq_q=300 --size seq_k=333
  exp st3_causal flash_attention_bwd_fused_causal --size seq_q=700 --size seq_k=520
}
for c in $cases/*; do
  python3 bench/results/2026-12-07-s49/carry_dk.py $c/kernel.ptx $c/kernel.ptx.new > /dev/null
  mv $c/kernel.ptx.new $c/kernel.ptx
done
tar czf $carry/cases.tgz -C /tmp/s49 c
du -sh $carry
