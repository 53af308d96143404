#!/usr/bin/env bash
# Session 34's call P: the new d = 96 defaults (64 + 32 columns; dense
# persistent, causal one program a tile) against the other grid form of
# each (alt: dense --persistent=false, causal --persistent: heads in
# sections), beside cuDNN. Carry (carry-P): head/ = DIMS=96
# VARIANTS="dense causal" bench/compile-variants.sh; alt/ the same with
# SETS="--persistent=false" (dense) and SETS=--persistent (causal);
# peer_sdpa.py. On the device: rm -rf carry && mv carry-P carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 120 python3 bench/compare.py --dirs head=carry/head,alt=carry/alt --variants dense,causal --dims 96 --seqlens 1024,2048,4096,8192,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 50 python3 carry/peer_sdpa.py --dims 96 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
