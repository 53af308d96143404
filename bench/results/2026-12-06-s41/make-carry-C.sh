#!/usr/bin/env bash
# Makes carry-C/ for runC.sh: the fused backward with dq_convert=last_program
# (the last program of each key/value head converts dq_acc into dq; no
# convert launch) as GPU cases — ragged, several heads and key blocks, f16,
# GQA 3, causal with queries past the keys, tiny, prefix-LM — and as
# backward sets at d = 64 and 128 (lp) beside the landed defaults (base).
# CALL and LP name the carry (carry-$CALL) and the last_program set (b-$LP):
# call D ran it with CALL=D LP=lp2 (make-carry-D.sh).
set -euo pipefail
CALL=${CALL:-C} LP=${LP:-lp}
carry=carry-$CALL tmp=/tmp/s41${CALL,,}
rm -rf $carry $tmp && mkdir -p $carry $tmp/c
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a --set dq_convert=last_program "$@" \
    --export-case=$tmp/c/$name > /dev/null
}
for d in 64 128; do
  exp lp_fused_d${d}_ragged flash_attention_bwd_fused --set head_dim=$d \
    --size batch=2 --size heads=3 --size seq_q=300 --size seq_k=333
  exp lp_fused_causal_d${d}_ragged flash_attention_bwd_fused_causal --set head_dim=$d \
    --size heads=2 --size seq_q=200 --size seq_k=230
  exp lp_fused_causal_d${d}_f16 flash_attention_bwd_fused_causal --set head_dim=$d \
    --set dtype=f16 --size seq_q=256 --size seq_k=200
  exp lp_fused_gqa3_d$d flash_attention_bwd_fused_gqa --set head_dim=$d --set group=3 \
    --size heads=6 --size seq_q=77 --size seq_k=130
  exp lp_fused_prefix_lm_d${d}_p40 flash_attention_bwd_fused_prefix_lm --set head_dim=$d \
    --set prefix=40 --size seq_q=150 --size seq_k=130
  exp lp_fused_causal_d${d}_tiny flash_attention_bwd_fused_causal --set head_dim=$d \
    --size seq_q=5 --size seq_k=7
done
tar czf $carry/cases.tgz -C $tmp c
DIMS="64 128" bash bench/compile-bwd.sh $carry/b-base
DIMS="64 128" FUSED_FLAGS="--set dq_convert=last_program" bash bench/compile-bwd.sh $carry/b-$LP
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
