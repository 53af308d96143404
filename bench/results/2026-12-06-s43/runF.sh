#!/usr/bin/env bash
# Session 43's call F (make-carry-F.sh; prepared, not run): the
# bisection's GPU cases (all programs, launched twice), then the d = 64 and
# 128 backward with the fused kernel scanning (old, the default) and
# bisecting (new), two alternating runs.
# On the device: rm -rf carry && mv carry-F carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c && tar xzf carry/cases.tgz -C /tmp/c
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/c/c > $OUT/r/cases.txt 2>&1
echo "cases rc $? $(( $(date +%s)-t0 ))s"
grep -h "cases:" $OUT/r/cases.txt; grep -h "FAIL" $OUT/r/cases.txt | head
timeout 300 python3 bench/compare.py --pass bwd --dirs old=carry/b-old,new=carry/b-new \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
