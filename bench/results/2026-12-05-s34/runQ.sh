#!/usr/bin/env bash
# Session 34's call Q — prepared, not run (no device time left): the d = 128
# defaults (Q read by wgmma from shared memory; its one slot is released
# after the tile's key loops, and call F's ncu at N = 1k has the consumers
# waiting 2.5 % of all samples for the next tile's Q) against Q in registers
# (qreg: loaded at the tile's start, no Q slot), both persistent, beside
# cuDNN. Carry (carry-Q):
#   DIMS=128 VARIANTS="dense causal" bash bench/compile-variants.sh carry-Q/head
#   DIMS=128 VARIANTS="dense causal" SETS="--a-in-shared=false --persistent" \
#     bash bench/compile-variants.sh carry-Q/qreg
#   cp ../shared/tools/peer_sdpa.py carry-Q/
# (--a-in-shared on the command line turns off the persistent default, so
# qreg names --persistent.) On the device: rm -rf carry && mv carry-Q carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 python3 bench/compare.py --dirs head=carry/head,qreg=carry/qreg --variants dense,causal --dims 128 --seqlens 1024,2048,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 50 python3 carry/peer_sdpa.py --dims 128 --seqlens 1024,2048,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
