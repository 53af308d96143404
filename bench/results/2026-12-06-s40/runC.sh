#!/usr/bin/env bash
# Session 40's call C (make-carry-C.sh): the backward at d = 64 and 128
# with this session's defaults, beside the peers in the same call; then
# the causal and GQA fused d = 64 kernels in both score layouts.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 200 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --pass bwd --dirs tilec=carry/b-tilec \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/compare.py --pass bwd --dirs kq=carry/b-kq,qk=carry/b-qk \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/layout > $OUT/r/layout.txt 2>&1
echo "layout rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt $OUT/r/layout.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
