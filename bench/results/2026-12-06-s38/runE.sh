#!/usr/bin/env bash
# Session 38's call E: the first key block peeled at d = 192, (192, 128)
# and 256 (its cases passed in call A) against their defaults, three
# alternating runs, N = 1k to 16k; cuDNN in the same call.
# Carry: carry-E (make-carry-E.sh). On the device: rm -rf carry && mv carry-E carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
S="1024,2048,4096,8192,16384"
timeout 240 python3 bench/compare.py --dirs old=carry/old,peel=carry/peel --variants dense,causal --dims 192,192v128,256 --seqlens $S --reps 3 --out $OUT/r/e > $OUT/r/e.txt 2>&1; echo "e rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 192,256 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens $S --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/e.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#" $OUT/r/heads.txt | grep -v Warning | grep -v "fn = lambda"
cd $OUT && tar czf r.tgz r && rm -rf r
