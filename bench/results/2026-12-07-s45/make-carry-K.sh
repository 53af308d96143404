#!/usr/bin/env bash
# Makes carry-K/ (from the repository root after scripts/build.sh): the
# forward with key blocks in power-of-two parts (block_n = 176 / 112 / 80
# as 128 + 32 + 16, 64 + 32 + 16, 64 + 16) at d = 64, where the default
# schedule's shared memory holds them: GPU cases (ragged, several heads,
# causal, sliding window, GQA 3, a part past seq_k, f16) and the dense and
# causal forwards at block_n 64 (the default), 128, 176 and 112 for
# bench/compare.py.
set -euo pipefail
carry=carry-K tmp=/tmp/s45k
rm -rf $carry $tmp && mkdir -p $carry $tmp/k
for bn in 64 128 176 112; do
  DIMS=64 VARIANTS="dense causal" SETS="--set block_n=$bn" bash bench/compile-variants.sh $carry/n$bn > /dev/null
  rm -f $carry/n$bn/flash_attention_block_mask_*
done
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a "$@" --export-case=$tmp/k/$name > /dev/null
}
exp fwd_n176_ragged flash_attention_fwd --set block_n=176 --size seq_q=300 --size seq_k=333
exp fwd_n176_multi flash_attention_fwd --set block_n=176 --size batch=2 --size heads=3 \
  --size seq_q=700 --size seq_k=520
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
tar czf $carry/cases.tgz -C $tmp k
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
