#!/usr/bin/env bash
# Makes carry-H/ for runG.sh and runH.sh (from the repository root after
# scripts/build.sh, after session 43's make-carry-F.sh and make-carry-G.sh
# made carry-F/ and carry-G/ with the build before this session's change):
# shared-memory accesses in a loop inside a loop take their thread offset
# through an opaque move (MemoryToNVVM's SharedPlacement), so the XOR of
# each access is computed beside it instead of held through every loop.
# The fused backward with it: d = 64 defaults scanning (o) and bisecting
# (ob); d = 128 persistent with a tile counter scanning (octr) and
# bisecting (octrb); and in a loop around loops (the epilogue of a
# persistent kernel's tile) the offsets come from an own read of %tid.x
# (as the global stores there already did). The d = 64 defaults and bisect sets of carry-F split
# by head dim (old64 / new64, def128) so each run times one d; GPU cases.
set -euo pipefail
carry=carry-H tmp=/tmp/s44h
rm -rf $carry $tmp && mkdir -p $carry $tmp/c
DIMS=64 bash bench/compile-bwd.sh $carry/b-o
DIMS=64 FUSED_FLAGS="--set query_ranges=bisect" bash bench/compile-bwd.sh $carry/b-ob
DIMS=128 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-octr
DIMS=128 FUSED_FLAGS="--persistent --tile-counter --set query_ranges=bisect" \
  bash bench/compile-bwd.sh $carry/b-octrb
mkdir -p $carry/b-old64 $carry/b-new64 $carry/b-def128
cp carry-F/b-old/*_d64.* $carry/b-old64/; cp carry-F/b-new/*_d64.* $carry/b-new64/
cp carry-F/b-old/*_d128.* $carry/b-def128/
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a "$@" --export-case=$tmp/c/$name > /dev/null
}
exp o_fused_causal_d64_ragged flash_attention_bwd_fused_causal --size seq_q=150 --size seq_k=201
exp o_fused_causal_d64_multi flash_attention_bwd_fused_causal --size heads=2 --size seq_q=300 \
  --size seq_k=333
exp ob_fused_causal_d64_multi flash_attention_bwd_fused_causal --set query_ranges=bisect \
  --size heads=2 --size seq_q=300 --size seq_k=333
for v in "" _causal; do
  exp octr_fused${v}_d128 flash_attention_bwd_fused$v --persistent --tile-counter \
    --set head_dim=128 --size heads=2 --size seq_q=300 --size seq_k=333
  exp octrb_fused${v}_d128_ragged flash_attention_bwd_fused$v --persistent --tile-counter \
    --set query_ranges=bisect --set head_dim=128 --size seq_q=150 --size seq_k=201
done
tar czf $carry/cases.tgz -C $tmp c
# Also (by hand, around a `git stash` rebuild): the d = 96 and 128 dense and
# causal forwards before (fold) and after (fnew) the change — its epilogue
# stmatrix addresses come from the tile loop's own %tid.x read:
#   DIMS="128 96" VARIANTS="dense causal" bash bench/compile-variants.sh carry-H/fold
du -sh $carry
