#!/usr/bin/env bash
# Makes carry-A/ for runA.sh: the d = 64 FA3-shaped dK/dV and fused
# backward at 128 query rows per step with the scores as [queries, keys]
# (TILEC_BM128, TILEC_QM: the experiment's switches) as GPU cases, and
# the d = 64 backward sets without (base) and with them (qm).
set -euo pipefail
rm -rf carry-A /tmp/s40a && mkdir -p carry-A /tmp/s40a/c
export TILEC_BM128=1 TILEC_QM=1
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a --set head_dim=64 "$@" \
    --export-case=/tmp/s40a/c/$name > /dev/null
}
for v in "" _causal; do
  for kn in fused dkdv; do
    exp sm90a_bwd_${kn}${v}_d64_ragged flash_attention_bwd_$kn$v --size heads=2 --size seq_q=300 --size seq_k=333
    exp sm90a_bwd_${kn}${v}_d64_f16 flash_attention_bwd_$kn$v --set dtype=f16 --size batch=2 --size seq_q=256 --size seq_k=256
  done
done
exp sm90a_bwd_fused_gqa3_d64 flash_attention_bwd_fused_gqa --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
exp sm90a_bwd_dkdv_gqa3_d64 flash_attention_bwd_dkdv_gqa --set group=3 --size heads=6 --size seq_q=200 --size seq_k=130
exp sm90a_bwd_fused_prefix_lm_d64 flash_attention_bwd_fused_prefix_lm --size heads=2 --size seq_q=300 --size seq_k=300
exp sm90a_bwd_fused_document_d64 flash_attention_bwd_fused_document --size heads=2 --size seq_q=300 --size seq_k=300
exp sm90a_bwd_fused_d64_tiny flash_attention_bwd_fused --size seq_q=5 --size seq_k=7
tar czf carry-A/cases.tgz -C /tmp/s40a c
DIMS=64 bash bench/compile-bwd.sh carry-A/b-qm
unset TILEC_BM128 TILEC_QM
DIMS=64 bash bench/compile-bwd.sh carry-A/b-base
cp /work/shared/tools/peer_sdpa.py carry-A/
du -sh carry-A
