#!/usr/bin/env bash
# Session 40's call D (make-carry-D.sh): the position compare — cases of
# every kernel whose PTX it changes, memcheck, and the backward's speed
# against the landed defaults.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz -C /tmp
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/c $OUT/r
mkdir -p /tmp/mc && cp -r /tmp/c/sm90a_bwd_fused_causal_d64_ragged /tmp/c/sm90a_bwd_fused_prefix_lm_d64_p40 /tmp/mc/
sanitize memcheck /tmp/mc $OUT/r
echo "cases done $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --pass bwd --dirs base=carry/b-base,pc=carry/b-pc \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
