#!/usr/bin/env bash
# Makes carry-B/ for runB.sh: the two dK/dV kernels whose PTX the joined
# waits changed and call A did not run (relative-bias table, windowed
# soft-capping, d = 128) as GPU cases; the backward sets with the new
# defaults (d = 64 fused: dot_before_dk) and with dq_order=after_dk at
# d = 128 (no longer serialized by ptxas since the joined waits).
set -euo pipefail
rm -rf carry-B /tmp/s39b && mkdir -p carry-B /tmp/s39b/c
for v in relative_bias_table sliding_window_softcap; do
  build/bin/tilec --kernel=flash_attention_bwd_dkdv_$v --arch=sm_90a --set head_dim=128 --set dtype=f16 \
    --size batch=2 --size seq_q=70 --size seq_k=90 --export-case=/tmp/s39b/c/sm90a_bwd_dkdv_${v}_d128_f16 > /dev/null
  build/bin/tilec --kernel=flash_attention_bwd_dkdv_$v --arch=sm_90a --set head_dim=128 \
    --size heads=2 --size seq_q=300 --size seq_k=333 --export-case=/tmp/s39b/c/sm90a_bwd_dkdv_${v}_d128_ragged > /dev/null
done
# Fused kernels the join changed at padded head dims (96, 112: d = 128's
# schedule) and the new d = 64 default at a smaller head dim (40).
for d in 40 96 112; do
  build/bin/tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set head_dim=$d \
    --size heads=2 --size seq_q=300 --size seq_k=333 --export-case=/tmp/s39b/c/sm90a_bwd_fused_causal_d${d}_ragged > /dev/null
done
build/bin/tilec --kernel=flash_attention_bwd_fused_gqa --arch=sm_90a --set head_dim=96 --set group=3 \
  --size heads=6 --size seq_q=77 --size seq_k=130 --export-case=/tmp/s39b/c/sm90a_bwd_fused_gqa3_d96 > /dev/null
tar czf carry-B/cases.tgz -C /tmp/s39b c
DIMS=128 bash bench/compile-bwd.sh carry-B/b-new
DIMS=128 FUSED_FLAGS="--set dq_order=after_dk" bash bench/compile-bwd.sh carry-B/b-after
du -sh carry-B
