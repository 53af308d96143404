#!/usr/bin/env bash
# Session 39's call B (make-carry-B.sh).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz -C /tmp
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/c $OUT/r
sanitize memcheck /tmp/c $OUT/r
# Timing only as far as the call's time allows (one run each).
timeout 120 python3 bench/compare.py --pass bwd --dirs new=carry/b-new,after=carry/b-after \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
