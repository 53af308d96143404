#!/usr/bin/env bash
# Makes carry-L/ (from the repository root after scripts/build.sh): the
# head dims of issue 17 in key parts. For bench/compare.py, the dense and
# causal forwards: d = 96 default (128-key blocks, 64 + 32 columns) / 176
# keys; d = 192 default (64 keys, Q in registers) / 80 keys / 112 keys with
# Q in shared memory (--a-in-shared: in registers 112 keys spill 188 B) /
# 96 keys with Q in shared memory. GPU cases of those.
set -euo pipefail
carry=carry-L tmp=/tmp/s45l
rm -rf $carry $tmp && mkdir -p $carry $tmp/l
comp() { # dir dims sets
  DIMS="$2" VARIANTS="dense causal" SETS="$3" bash bench/compile-variants.sh $carry/$1 > /dev/null
  rm -f $carry/$1/flash_attention_block_mask_*
}
comp d96 96 ""
comp d96n176 96 "--set block_n=176"
comp d96n192 96 "--set block_n=192"
comp d192 192 ""
comp d192n80 192 "--set block_n=80"
comp d192n112s 192 "--set block_n=112 --a-in-shared"
comp d192n96s 192 "--set block_n=96 --a-in-shared"
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a "$@" --export-case=$tmp/l/$name > /dev/null
}
exp d96_n176 flash_attention_fwd --set head_dim=96 --set block_n=176 --size heads=2 --size seq_q=300 \
  --size seq_k=733
exp d96_n176_causal flash_attention_fwd_causal --set head_dim=96 --set block_n=176 --size seq_q=500 \
  --size seq_k=433
exp d192_n80 flash_attention_fwd --set head_dim=192 --set block_n=80 --size seq_q=300 --size seq_k=333
exp d192_n80_causal flash_attention_fwd_causal --set head_dim=192 --set block_n=80 --size seq_q=257 \
  --size seq_k=300
exp d192_n112s flash_attention_fwd --set head_dim=192 --set block_n=112 --a-in-shared --size seq_q=300 \
  --size seq_k=333
exp d192_n112s_causal flash_attention_fwd_causal --set head_dim=192 --set block_n=112 --a-in-shared \
  --set dtype=f16 --size heads=2 --size seq_q=200 --size seq_k=250
exp d192_n96s flash_attention_fwd --set head_dim=192 --set block_n=96 --a-in-shared --size seq_q=130 \
  --size seq_k=520
tar czf $carry/cases.tgz -C $tmp l
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
