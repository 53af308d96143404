#!/usr/bin/env bash
# Session 31's call S (see prepareS.sh). On the device: rm -rf carry && mv carry-S carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs def=carry/d64-def,ov=carry/d64-ov,s3=carry/d64-s3,s3ov=carry/d64-s3ov --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/d64 > $OUT/r/d64.txt 2>&1; echo "d64 rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 bench/compare.py --dirs def=carry/d128-def,bn64=carry/d128-bn64,noov=carry/d128-noov --dims 128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/d128 > $OUT/r/d128.txt 2>&1; echo "d128 rc $? $(( $(date +%s)-t0 ))s"
timeout 90 python3 carry/peer_sdpa.py --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/d64.txt $OUT/r/d128.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
