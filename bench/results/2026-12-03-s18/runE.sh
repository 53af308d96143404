#!/usr/bin/env bash
# session 18 call E: causal / window / GQA dK/dV d = 128 with a producer warpgroup and the statistics read where used
# (16 spill bytes, branch s18-masked-ws), per kernel beside the default (main ff377b3: TMA by the consumers).
mkdir -p $OUT/r
timeout 200 python3 bench/bwd_kernels.py --ptx-dir carry/s18/tp2 --sweep-dir carry/s18/sw3 --dims 128 --seqlens 1024,4096,16384 --variants "causal,sliding_window,gqa" --json $OUT/r/sweep-wsuse.json > $OUT/r/sweep-wsuse.txt 2>&1; echo "sweep rc $?"
cat $OUT/r/sweep-wsuse.txt
cd $OUT && tar czf r.tgz r && rm -rf r
