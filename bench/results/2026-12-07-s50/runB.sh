#!/usr/bin/env bash
# Session 50's call B (session 49's, with d = 64 timed too) (carry-B from make-carry-B.sh): the
# fused backward with --f32-staging-bytes=32 (dQ staged in 32-byte column
# blocks: no bank conflicts in its f32 stores): GPU cases and racecheck, then the d = 128 backward old against
# new (bench/compare.py --pass bwd). Session 50 adds the fused kernels
# with --set statistics=lse_top (lse loaded above the step's wgmmas): lse (on
# old), both (on new).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/s50 && tar xzf carry-B/cases.tgz -C /tmp/s50
build_tools; echo "tools $(elapsed)"
run_cases /tmp/s50/b $OUT/r
compare_bwd bwd 420 old=carry-B/old,new=carry-B/new,lse=carry-B/lse,both=carry-B/both
sanitize racecheck /tmp/s50/b $OUT/r
cd $OUT && tar czf r.tgz r && rm -rf r
