#!/usr/bin/env bash
# session 18 call C: dK/dV d = 128 in FA3's shape: warp-specialized (producer warpgroup, no block barrier per step)
# and three ring slots, per kernel beside the default (main 92bc783), dense / causal / window.
mkdir -p $OUT/r
timeout 200 python3 bench/bwd_kernels.py --ptx-dir carry/s18/tp2 --sweep-dir carry/s18/sw2 --dims 128 --seqlens 1024,4096,16384 --variants ",causal,sliding_window" --json $OUT/r/sweep-ws.json > $OUT/r/sweep-ws.txt 2>&1; echo "sweep rc $?"
cat $OUT/r/sweep-ws.txt
cd $OUT && tar czf r.tgz r && rm -rf r
