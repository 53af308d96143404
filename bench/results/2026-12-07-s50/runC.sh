#!/usr/bin/env bash
# Session 50's call C (not run: no device time was left), call B cut to the device time left (about 4 minutes,
# after two calls lost to failed starts and one taken back mid-run): carry-C
# holds carry-B's d = 128 sets and six of its cases. The cases on all
# programs, then one rep of the d = 128 backward: old, both (f32 staging 32 +
# lse_top), lse, new.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
timeout 40 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry-C/cases > $OUT/r/cases.txt 2>&1
echo "cases rc $? $(elapsed)"; grep -h "cases:" $OUT/r/cases.txt; grep -hE "FAIL|rror" $OUT/r/cases.txt | head
timeout 120 python3 bench/compare.py --pass bwd --dirs old=carry-C/old,both=carry-C/both,lse=carry-C/lse,new=carry-C/new \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(elapsed)"; cat $OUT/r/bwd.txt
