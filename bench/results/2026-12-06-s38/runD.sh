#!/usr/bin/env bash
# Session 38's call D: the d = 64 forward's default schedule against the
# same with the overlapped loop, and with it and the first key block
# peeled (their GPU cases: sm90a_ov_d64_* in call A's set, which ran with
# the peel), N = 1k to 16k, three alternating runs; cuDNN in the same call.
# Carry: carry-D (make-carry-D.sh). On the device: rm -rf carry && mv carry-D carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
S="1024,2048,4096,8192,16384"
timeout 200 python3 bench/compare.py --dirs def=carry/def,ov=carry/ov,ovpeel=carry/ovpeel --variants dense,causal --dims 64 --seqlens $S --reps 3 --out $OUT/r/d > $OUT/r/d.txt 2>&1; echo "d rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/d.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
