#!/usr/bin/env bash
# Makes carry-M/ (from the repository root after scripts/build.sh): the row
# sum kept per thread through the key loops (row_sums=end) against the
# defaults (row_sums=step), for bench/compare.py (dense and causal at d =
# 64, 96, 128, 192, 256; d = 64 also with 128-key blocks), and its GPU
# cases: ragged sizes, rows with no key (causal N_q > N_k), several heads,
# GQA 3, f16, a sliding window, ALiBi, key parts, a persistent causal grid,
# listed blocks (document mask), variable lengths, sm_80.
set -euo pipefail
carry=carry-M tmp=/tmp/s46m
rm -rf $carry $tmp && mkdir -p $carry $tmp/m
comp() { # dir dims sets
  DIMS="$2" VARIANTS="dense causal" SETS="$3" bash bench/compile-variants.sh $carry/$1 > /dev/null
}
for d in 64 96 128 192 256; do
  comp d$d $d ""
  comp d${d}e $d "--set row_sums=end"
done
comp d64n128 64 "--set block_n=128"
comp d64n128e 64 "--set block_n=128 --set row_sums=end"
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=${ARCH:-sm_90a} --set row_sums=end "$@" \
    --export-case=$tmp/m/$name > /dev/null
}
for d in 64 128 256; do
  exp d${d}_ragged flash_attention_fwd --set head_dim=$d --size heads=2 --size seq_q=300 --size seq_k=333
  exp d${d}_causal_nq_gt_nk flash_attention_fwd_causal --set head_dim=$d --size seq_q=600 --size seq_k=45
  exp d${d}_causal_multi flash_attention_fwd_causal --set head_dim=$d --size batch=2 --size heads=2 \
    --size seq_q=257 --size seq_k=390
  exp d${d}_f16 flash_attention_fwd --set head_dim=$d --set dtype=f16 --size seq_q=130 --size seq_k=140
done
exp d64_n128_ragged flash_attention_fwd --set block_n=128 --size heads=2 --size seq_q=300 --size seq_k=333
exp d64_n128_causal flash_attention_fwd_causal --set block_n=128 --size seq_q=400 --size seq_k=390
exp d96_causal flash_attention_fwd_causal --set head_dim=96 --size heads=2 --size seq_q=300 --size seq_k=333
exp d192_ragged flash_attention_fwd --set head_dim=192 --size seq_q=200 --size seq_k=301
exp d192v128_causal flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --size seq_q=200 \
  --size seq_k=250
exp d128_gqa3 flash_attention_fwd_gqa --set head_dim=128 --set group=3 --size heads=6 --size seq_q=77 \
  --size seq_k=390
exp d128_window flash_attention_fwd_sliding_window --set head_dim=128 --set window=100 --size seq_q=400 \
  --size seq_k=401
exp d128_alibi flash_attention_fwd_alibi --set head_dim=128 --size heads=4 --size seq_q=200 --size seq_k=370
exp d128_n176 flash_attention_fwd --set head_dim=128 --set block_n=176 --size seq_q=300 --size seq_k=733
exp d128_persistent_causal flash_attention_fwd_causal --set head_dim=128 --persistent --size batch=2 \
  --size heads=2 --size seq_q=400 --size seq_k=390
exp d64_document flash_attention_fwd_document --size batch=2 --size seq_q=300 --size seq_k=421
exp d64_varlen_causal flash_attention_varlen_causal --size batch=4 --size seq_q=150 --size seq_k=290
ARCH=sm_80 exp sm80_causal flash_attention_fwd_causal --size heads=2 --size seq_q=150 --size seq_k=201
tar czf $carry/cases.tgz -C $tmp m
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
