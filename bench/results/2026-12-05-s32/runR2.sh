#!/usr/bin/env bash
# Session 32's call R2: the d = 64 forward with the rings released on
# mbarriers (rel/, call R's carry) beside cuDNN in the same call.
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 python3 bench/compare.py --dirs head=carry/head,rel=carry/rel --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $?"
timeout 100 python3 carry/peer_sdpa.py --dims 64 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $?"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
