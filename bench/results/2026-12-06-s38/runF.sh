#!/usr/bin/env bash
# Session 38's call F: three K/V ring slots at d = 192 (dense, causal) and
# causal (192, 128) against the default two, three alternating runs, N = 1k
# to 16k; cuDNN in the same call.
# Carry: carry-F (make-carry-F.sh). On the device: rm -rf carry && mv carry-F carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
S="1024,2048,4096,8192,16384"
timeout 150 python3 bench/compare.py --dirs def=carry/def,s3=carry/s3 --variants dense,causal --dims 192 --seqlens $S --reps 3 --out $OUT/r/f > $OUT/r/f.txt 2>&1; echo "f rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 bench/compare.py --dirs def=carry/def,s3=carry/s3 --variants causal --dims 192v128 --seqlens $S --reps 3 --out $OUT/r/fv > $OUT/r/fv.txt 2>&1; echo "fv rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 192 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt $OUT/r/fv.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
