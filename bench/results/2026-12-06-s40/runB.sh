#!/usr/bin/env bash
# Session 40's call B (make-carry-B.sh): the fused d = 64 backward's dQ
# order beside its 128-row step.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 300 python3 bench/compare.py --pass bwd --dirs dflt=carry/b-dflt,before=carry/b-before,after=carry/b-after \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
