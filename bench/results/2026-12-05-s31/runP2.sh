#!/usr/bin/env bash
# Session 31's call P2 (see prepareP2.sh). On the device: rm -rf carry && mv carry-P2 carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs def=carry/def,p0=carry/p0,q2=carry/q2,q4=carry/q4 --variants causal --dims 128 --seqlens 1024,2048,4096,8192,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 128 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
