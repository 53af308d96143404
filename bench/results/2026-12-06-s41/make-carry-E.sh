#!/usr/bin/env bash
# Makes carry-E/ for runE.sh: GPU cases of dq_convert=last_program on the
# lowerings calls C and D did not run — tile-to-llvm on sm_80 (the PTX
# JIT-compiled on the H100) and on sm_90a (bulk reductions), and the
# tilegpu path without TMA or warp roles (barrier 0 of the block).
set -euo pipefail
rm -rf carry-E /tmp/s41e && mkdir -p carry-E /tmp/s41e/c
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --set dq_convert=last_program "$@" \
    --export-case=/tmp/s41e/c/$name > /dev/null
}
for d in 64 128; do
  exp lp80_fused_d${d}_ragged flash_attention_bwd_fused --arch=sm_80 --set head_dim=$d \
    --size batch=2 --size heads=3 --size seq_q=300 --size seq_k=333
  exp lp80_fused_causal_d$d flash_attention_bwd_fused_causal --arch=sm_80 --set head_dim=$d \
    --size heads=2 --size seq_q=200 --size seq_k=230
  exp lptl_fused_d${d}_ragged flash_attention_bwd_fused --arch=sm_90a --lowering=tile-to-llvm \
    --set head_dim=$d --size batch=2 --size heads=3 --size seq_q=300 --size seq_k=333
  exp lptg_fused_causal_d$d flash_attention_bwd_fused_causal --arch=sm_90a --lowering=tilegpu \
    --tma=false --warp-specialize=false --set head_dim=$d --size heads=2 --size seq_q=200 \
    --size seq_k=230
done
exp lp80_fused_gqa3_d64 flash_attention_bwd_fused_gqa --arch=sm_80 --set group=3 \
  --size heads=6 --size seq_q=77 --size seq_k=130
tar czf carry-E/cases.tgz -C /tmp/s41e c
du -sh carry-E
