#!/usr/bin/env bash
# Session 51. Makes carry-D/ for runD.sh (from the repository root after
# scripts/build.sh): the d = 128 backward set as it was (old: the fused
# kernels' statistics=at_use) and as it is (lse: lse read at the step's top,
# +2-6 % in call B), peer_sdpa.py for cuDNN's backward beside them, and the
# d = 64 dense forward's two schedules (default, seq_schedule=long) for
# ab_cudnn.py.
set -euo pipefail
carry=carry-D
. bench/results/carry-lib.sh
rm -rf $carry && mkdir -p $carry
DIMS=128 FUSED_FLAGS="--set statistics=at_use" bash bench/compile-bwd.sh $carry/old > /dev/null
DIMS=128 bash bench/compile-bwd.sh $carry/lse > /dev/null # the default since this session
# one: the fused kernels with one barrier of both warpgroups a step
# (--set consumer_barriers=one: dSᵀ in two slots, dQ's staging published to
# the issuing warp alone; built in session 51, not yet run on a GPU).
DIMS=128 FUSED_FLAGS="--set consumer_barriers=one" bash bench/compile-bwd.sh $carry/one > /dev/null
# arr: lse with arrive_staging.py's PTX edit of the fused kernels (a timing
# bound: the warps that issue no dQ reduction only arrive on its staging
# barrier).
cp -r $carry/lse $carry/arr
for v in "" _causal; do
  python3 bench/results/2026-12-07-s51/arrive_staging.py $carry/lse/flash_attention_bwd_fused${v}_d128.ptx \
    $carry/arr/flash_attention_bwd_fused${v}_d128.ptx
done
cp ../shared/tools/peer_sdpa.py $carry/
# GPU cases of the new default (lse_top in the fused d = 128 kernels) where
# call B ran none: prefix-LM, f16 causal with N_q < N_k, B and H > 1.
cases=/tmp/s51/d
rm -rf $cases && mkdir -p $cases
exp lse_prefix flash_attention_bwd_fused_prefix_lm --set head_dim=128 --size batch=1 --size heads=2 \
  --size seq_q=300 --size seq_k=333
exp lse_causal_f16 flash_attention_bwd_fused_causal --set head_dim=128 --set dtype=f16 --size batch=2 \
  --size heads=3 --size seq_q=190 --size seq_k=260
exp lse_gqa5 flash_attention_bwd_fused_gqa --set head_dim=128 --set group=5 --size heads=5 \
  --size seq_q=130 --size seq_k=70
# ... and of consumer_barriers=one: ragged, causal N_q > N_k, f16 causal with
# B, H > 1, GQA 3, prefix-LM (each loop's first step writes slot 0 after
# the last loop's step read either).
O="--set head_dim=128 --set consumer_barriers=one"
exp one_ragged flash_attention_bwd_fused $O --size batch=1 --size heads=2 --size seq_q=300 --size seq_k=333
exp one_causal flash_attention_bwd_fused_causal $O --size batch=1 --size heads=2 --size seq_q=333 \
  --size seq_k=300
exp one_causal_f16 flash_attention_bwd_fused_causal $O --set dtype=f16 --size batch=2 --size heads=3 \
  --size seq_q=190 --size seq_k=260
exp one_gqa3 flash_attention_bwd_fused_gqa $O --set group=3 --size heads=6 --size seq_q=200 --size seq_k=257
exp one_prefix flash_attention_bwd_fused_prefix_lm $O --size batch=1 --size heads=2 --size seq_q=300 \
  --size seq_k=333
tar czf $carry/cases.tgz -C /tmp/s51 d
VARIANTS=dense comp f64def 64 ""
VARIANTS=dense comp f64long 64 "--set seq_schedule=long"
du -sh $carry
