#!/usr/bin/env bash
# Makes carry-D/ for runD1.sh and runD2.sh (from the repository root after
# scripts/build.sh): session 42's seq_schedule=long GPU cases, the Python
# package's kernels and the d = 64 forward in both schedules (as its
# make-carry-B.sh); the fused backward on a persistent grid (--persistent:
# programs loop over (key block, head) tiles; with --tile-counter taking
# them from a counter; with dq_convert=last_program) as GPU cases, packed
# (cases.tgz); and backward sets at d = 64 for each beside the default.
set -euo pipefail
carry=carry-D tmp=/tmp/s43d
rm -rf $carry $tmp && mkdir -p $carry $tmp/c
DEFAULTS=1 bash scripts/gpu-cases.sh $tmp/defaults > /dev/null
mv $tmp/defaults/sm90a_long_* $tmp/c/
bash scripts/compile-torch-kernels.sh $carry/torch-ptx > /dev/null
DIMS=64 VARIANTS="dense causal" bash bench/compile-variants.sh $carry/fdef
DIMS=64 VARIANTS="dense" SETS="--set seq_schedule=long" bash bench/compile-variants.sh $carry/flong
rm -f $carry/f*/flash_attention_block_mask_document.*
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a --persistent "$@" \
    --export-case=$tmp/c/$name > /dev/null
}
for v in "" _causal _gqa _prefix_lm _alibi _softcap _sliding_window; do
  exp p_fused${v}_ragged flash_attention_bwd_fused$v --size seq_q=150 --size seq_k=201
  exp p_fused${v}_empty_rows flash_attention_bwd_fused$v --size seq_q=130 --size seq_k=45
  exp p_fused${v}_d128_f16 flash_attention_bwd_fused$v --set head_dim=128 --set dtype=f16 \
    --size batch=2 --size seq_q=70 --size seq_k=90 --size amplitude=4
done
for v in "" _causal _gqa _prefix_lm; do
  exp p_fused${v}_d64_multi flash_attention_bwd_fused$v --set dtype=f16 --size heads=2 \
    --size seq_q=300 --size seq_k=333
  exp p_fused${v}_d128_ragged flash_attention_bwd_fused$v --set head_dim=128 \
    --size seq_q=300 --size seq_k=333
done
exp p_fused_gqa3 flash_attention_bwd_fused_gqa --set group=3 --size heads=6 --size seq_q=77 --size seq_k=130
exp p_fused_causal_tiny flash_attention_bwd_fused_causal --size seq_q=5 --size seq_k=3
exp p_fused_d128_tiny flash_attention_bwd_fused --set head_dim=128 --set dtype=f16 --size seq_q=5 --size seq_k=3
for v in "" _causal; do
  exp pc_fused${v}_d64_multi flash_attention_bwd_fused$v --tile-counter --size heads=2 \
    --size seq_q=300 --size seq_k=333
  exp plp_fused${v}_d64_ragged flash_attention_bwd_fused$v --set dq_convert=last_program \
    --size heads=2 --size seq_q=300 --size seq_k=333
done
exp plp_fused_gqa3 flash_attention_bwd_fused_gqa --set dq_convert=last_program --set group=3 \
  --size heads=6 --size seq_q=77 --size seq_k=130
exp plp_fused_causal_tiny flash_attention_bwd_fused_causal --set dq_convert=last_program \
  --size seq_q=5 --size seq_k=7
tar czf $carry/cases.tgz -C $tmp c
DIMS=64 bash bench/compile-bwd.sh $carry/b-def
DIMS=64 FUSED_FLAGS="--persistent" bash bench/compile-bwd.sh $carry/b-pers
DIMS=64 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-ctr
DIMS=64 FUSED_FLAGS="--persistent --set dq_convert=last_program" bash bench/compile-bwd.sh $carry/b-plp
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
