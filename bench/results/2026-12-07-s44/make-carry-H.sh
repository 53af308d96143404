#!/usr/bin/env bash
# Makes carry-H/ for runGH2.sh (from the repository root after
# scripts/build.sh with shared-offsets.patch applied, after session 43's
# make-carry-F.sh made carry-F/ with main's build):
# shared-memory accesses in a loop inside a loop take their thread offset
# through an opaque move (MemoryToNVVM's SharedPlacement), so the XOR of
# each access is computed beside it instead of held through every loop.
# The fused backward with it: d = 64 defaults scanning (o) and bisecting
# (ob); d = 128 persistent with a tile counter scanning (octr) and
# bisecting (octrb); and in a loop around loops (the epilogue of a
# persistent kernel's tile) the offsets come from an own read of %tid.x
# (as the global stores there already did). Main's d = 64 and 128 defaults
# from carry-F split by head dim (old64, def128) so
# each run times one d; GPU cases; peer_sdpa.py.
set -euo pipefail
carry=carry-H tmp=/tmp/s44h
rm -rf $carry $tmp && mkdir -p $carry $tmp/c
DIMS=64 bash bench/compile-bwd.sh $carry/b-o
DIMS=64 FUSED_FLAGS="--set query_ranges=bisect" bash bench/compile-bwd.sh $carry/b-ob
DIMS=128 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-octr
DIMS=128 FUSED_FLAGS="--persistent --tile-counter --set query_ranges=bisect" \
  bash bench/compile-bwd.sh $carry/b-octrb
mkdir -p $carry/b-old64 $carry/b-def128
cp carry-F/b-old/*_d64.* $carry/b-old64/
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
cp /work/shared/tools/peer_sdpa.py $carry/
# (make-carries.sh adds the d = 96 and 128 forwards before (fold) and
# after (fnew) the patch: their persistent epilogues change.)
du -sh $carry
