#!/usr/bin/env bash
# Session 40's call E (make-carry-E.sh): the d = 64 backward with the landed
# defaults beside cuDNN and FlashAttention-2 in the same call.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --pass bwd --dims 64 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/compare.py --pass bwd --dirs tilec=carry/b-tilec \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
