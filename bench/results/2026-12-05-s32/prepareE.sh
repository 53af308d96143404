#!/usr/bin/env bash
# Session 32's call E: the online softmax's exp2 partly on the FMA pipes
# (--exp2-on-fma=N: one exp2 in N per thread by a cubic instead of
# MUFU.EX2) at d = 64 and 128, dense and causal, N = 8 / 4 / 2 against the
# default (0), and GPU cases compiled with it (ragged, masked rows, f16,
# the persistent causal d = 128 default) alone and under racecheck. Then runE.sh.
set -euo pipefail
rm -rf carry-E && mkdir -p carry-E/cases
for n in 0 8 4 2; do
  DIMS="64 128" VARIANTS="dense causal" SETS="--exp2-on-fma=$n" bash bench/compile-variants.sh carry-E/fma$n > /dev/null
done
c() { name=$1; shift; build/bin/tilec --arch=sm_90a --export-case=carry-E/cases/$name "$@" > /dev/null; }
c fma4_d64_causal --kernel=flash_attention_fwd_causal --exp2-on-fma=4 --size batch=2 --size seq_q=300 --size seq_k=333
c fma2_d64_causal_f16 --kernel=flash_attention_fwd_causal --exp2-on-fma=2 --set dtype=f16 --size seq_q=200 --size seq_k=190
c fma2_d64_tiny --kernel=flash_attention_fwd_causal --exp2-on-fma=2 --size seq_q=5 --size seq_k=3
c fma4_d128_causal --kernel=flash_attention_fwd_causal --exp2-on-fma=4 --set head_dim=128 --size batch=2 --size heads=3 --size seq_q=1000 --size seq_k=1000
c fma4_d128_dense_ragged --kernel=flash_attention_fwd --exp2-on-fma=4 --set head_dim=128 --size seq_q=150 --size seq_k=290
c fma1_d64_gqa3 --kernel=flash_attention_fwd_gqa --exp2-on-fma=1 --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
echo "carry-E: $(du -sm carry-E | cut -f1) MiB"
