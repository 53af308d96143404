#!/usr/bin/env bash
# session 19 call G: causal dQ at d = 128 (default: 64x64 tiles, 4 warps, cp.async rings) against TMA shapes,
# with and without a producer warpgroup (spill-free since epilogue stores read their own %tid.x); gradients checked.
mkdir -p $OUT/r
timeout 150 python3 bench/bwd_kernels.py --ptx-dir carry/s19/tp --sweep-dir carry/s19/swq --dims 128 --seqlens 1024,4096,16384 --variants causal --json $OUT/r/sweep-dq.json > $OUT/r/sweep-dq.txt 2>&1; echo "sweep rc $?"
sed 's/err vs sdpa.*//' $OUT/r/sweep-dq.txt
cd $OUT && tar czf r.tgz r && rm -rf r
