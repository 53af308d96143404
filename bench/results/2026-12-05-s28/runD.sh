#!/usr/bin/env bash
# Session 28's call D (prepared, not run). Prepare with
# `bash bench/results/2026-12-05-s28/prepare.sh D`; see its header.
mkdir -p $OUT/r
t0=$(date +%s)
timeout 200 python3 bench/compare.py --dirs pad=carry/v-pad,split=carry/v-split --variants dense,causal --dims 80,112 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 carry/peer_sdpa.py --dims 80,112 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
