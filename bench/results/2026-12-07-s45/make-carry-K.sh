#!/usr/bin/env bash
# Makes carry-K/ (from the repository root after scripts/build.sh): the
# forward with key blocks in power-of-two parts (block_n = 176 / 112 / 80
# as 128 + 32 + 16, 64 + 32 + 16, 64 + 16; with overlap the last block's
# P·V in a loop of one step so that its V block comes through the key
# loops' rings, last_values=ring): GPU cases (ragged, several heads,
# causal, sliding window, GQA 3, ALiBi, a part past seq_k, f16; d = 64,
# 128 and 256), and for bench/compare.py the dense and causal forwards:
# d = 64 default (64-key blocks) / 128 / 176; d = 128 default / 176 / 192 / 176 on a
# persistent grid / 128 with last_values=ring; d = 256 default (64) / 80;
# and make-carry-L.sh's d = 96 and 192.
set -euo pipefail
carry=carry-K tmp=/tmp/s45k
rm -rf $carry $tmp && mkdir -p $carry $tmp/k
comp() { # dir dims sets
  DIMS="$2" VARIANTS="dense causal" SETS="$3" bash bench/compile-variants.sh $carry/$1 > /dev/null
  rm -f $carry/$1/flash_attention_block_mask_*
}
comp d64 64 ""
comp d64n176 64 "--set block_n=176"
comp d64n128 64 "--set block_n=128"
comp d128 128 ""
comp d128n176 128 "--set block_n=176"
comp d128n176p 128 "--set block_n=176 --persistent"
comp d128n192 128 "--set block_n=192"
comp d128ring 128 "--set last_values=ring"
comp d256 256 ""
comp d256n80 256 "--set block_n=80"
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a "$@" --export-case=$tmp/k/$name > /dev/null
}
exp fwd_n176_ragged flash_attention_fwd --set block_n=176 --size seq_q=300 --size seq_k=333
exp fwd_n176_multi flash_attention_fwd --set block_n=176 --size batch=2 --size heads=2 \
  --size seq_q=400 --size seq_k=520
exp fwd_n176_short flash_attention_fwd --set block_n=176 --size seq_q=130 --size seq_k=140
exp fwd_n176_f16 flash_attention_fwd --set block_n=176 --set dtype=f16 --size seq_q=257 --size seq_k=450
exp causal_n176 flash_attention_fwd_causal --set block_n=176 --size heads=2 --size seq_q=300 \
  --size seq_k=500
exp causal_n176_nq_gt_nk flash_attention_fwd_causal --set block_n=176 --size seq_q=600 --size seq_k=45
exp causal_n112 flash_attention_fwd_causal --set block_n=112 --size seq_q=333 --size seq_k=333
exp window_n80 flash_attention_fwd_sliding_window --set block_n=80 --set window=100 \
  --size seq_q=400 --size seq_k=401
exp gqa3_n176 flash_attention_fwd_gqa --set block_n=176 --set group=3 --size heads=6 \
  --size seq_q=77 --size seq_k=390
exp alibi_n176 flash_attention_fwd_alibi --set block_n=176 --size heads=4 --size seq_q=200 --size seq_k=370
for d in 128; do
  exp d${d}_n176_ragged flash_attention_fwd --set head_dim=$d --set block_n=176 --size heads=2 \
    --size seq_q=300 --size seq_k=733
  exp d${d}_n176_f16 flash_attention_fwd --set head_dim=$d --set block_n=176 --set dtype=f16 \
    --size batch=2 --size seq_q=257 --size seq_k=150
  exp d${d}_n176_causal flash_attention_fwd_causal --set head_dim=$d --set block_n=176 \
    --size heads=2 --size seq_q=500 --size seq_k=433
  exp d${d}_n176_gqa3 flash_attention_fwd_gqa --set head_dim=$d --set block_n=176 --set group=3 \
    --size heads=6 --size seq_q=200 --size seq_k=390
  exp d${d}_n176_persistent flash_attention_fwd --set head_dim=$d --set block_n=176 --persistent \
    --size batch=2 --size heads=2 --size seq_q=400 --size seq_k=390
  exp d${d}_n192_ragged flash_attention_fwd --set head_dim=$d --set block_n=192 --size heads=2 \
    --size seq_q=300 --size seq_k=450
  exp d${d}_ring_causal flash_attention_fwd_causal --set head_dim=$d --set last_values=ring \
    --size heads=2 --size seq_q=300 --size seq_k=333
done
exp d256_n80_ragged flash_attention_fwd --set head_dim=256 --set block_n=80 --size heads=2 \
  --size seq_q=300 --size seq_k=333
exp d256_n80_causal flash_attention_fwd_causal --set head_dim=256 --set block_n=80 \
  --size seq_q=200 --size seq_k=250
# mma.sync (sm_80) in key parts: 48 = 32 + 16 keys.
build/bin/tilec --kernel=flash_attention_fwd_causal --arch=sm_80 --set block_n=48 --size heads=2 \
  --size seq_q=150 --size seq_k=201 --export-case=$tmp/k/sm80_causal_n48 > /dev/null
# Issue 17's head dims (make-carry-L.sh's, folded in: one call).
bash bench/results/2026-12-07-s45/make-carry-L.sh > /dev/null
mv carry-L/d96 carry-L/d96n176 carry-L/d96n192 carry-L/d192 carry-L/d192n80 carry-L/d192n112s carry-L/d192n96s $carry/
tar xzf carry-L/cases.tgz -C $tmp && mv $tmp/l/* $tmp/k/ && rm -rf carry-L
tar czf $carry/cases.tgz -C $tmp k
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
