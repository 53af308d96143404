#!/usr/bin/env bash
# Makes carry-N/ (from the repository root after scripts/build.sh): the lazy
# rescale (lazy_rescale=on: the running max moves only by more than 8, O's
# rescale skipped by a warp whose alphas are all 1), alone and with
# row_sums=end, for bench/compare.py (dense and causal at d = 64, 96, 128,
# 192, 256), and its GPU cases (peaked scores, amplitude 8, so that maxima
# move; ragged sizes, rows with no key, several heads, GQA 3, f16, a
# window, ALiBi, a persistent causal grid, key parts, document lists,
# variable lengths, sm_80).
set -euo pipefail
carry=carry-N tmp=/tmp/s46n
rm -rf $carry $tmp && mkdir -p $carry $tmp/n
comp() { # dir dims sets
  DIMS="$2" VARIANTS="dense causal" SETS="$3" bash bench/compile-variants.sh $carry/$1 > /dev/null
}
for d in 64 96 128 192 256; do
  comp d${d}z $d "--set lazy_rescale=on"
done
for d in 128 256; do
  comp d${d}ez $d "--set lazy_rescale=on --set row_sums=end"
done
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=${ARCH:-sm_90a} --set lazy_rescale=on "$@" \
    --size amplitude=8 --export-case=$tmp/n/$name > /dev/null
}
for d in 64 128 256; do
  exp z${d}_ragged flash_attention_fwd --set head_dim=$d --size heads=2 --size seq_q=300 --size seq_k=733
  exp z${d}_causal_nq_gt_nk flash_attention_fwd_causal --set head_dim=$d --size seq_q=600 --size seq_k=45
  exp z${d}_causal_multi flash_attention_fwd_causal --set head_dim=$d --set row_sums=end --size batch=2 \
    --size heads=2 --size seq_q=257 --size seq_k=390
done
exp z128_f16 flash_attention_fwd --set head_dim=128 --set dtype=f16 --size seq_q=130 --size seq_k=540
exp z96_causal flash_attention_fwd_causal --set head_dim=96 --size heads=2 --size seq_q=300 --size seq_k=333
exp z192_ragged flash_attention_fwd --set head_dim=192 --size seq_q=200 --size seq_k=301
exp z128_gqa3 flash_attention_fwd_gqa --set head_dim=128 --set group=3 --size heads=6 --size seq_q=77 \
  --size seq_k=390
exp z128_window flash_attention_fwd_sliding_window --set head_dim=128 --set window=100 --size seq_q=400 \
  --size seq_k=401
exp z128_alibi flash_attention_fwd_alibi --set head_dim=128 --size heads=4 --size seq_q=200 --size seq_k=370
exp z128_persistent_causal flash_attention_fwd_causal --set head_dim=128 --persistent --size batch=2 \
  --size heads=2 --size seq_q=400 --size seq_k=390
exp z128_n176 flash_attention_fwd --set head_dim=128 --set block_n=176 --size seq_q=300 --size seq_k=733
exp z64_document flash_attention_fwd_document --size batch=2 --size seq_q=300 --size seq_k=421
exp z64_varlen_causal flash_attention_varlen_causal --size batch=4 --size seq_q=150 --size seq_k=290
ARCH=sm_80 exp zsm80_causal flash_attention_fwd_causal --size heads=2 --size seq_q=150 --size seq_k=201
tar czf $carry/cases.tgz -C $tmp n
du -sh $carry
