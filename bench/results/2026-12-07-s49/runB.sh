#!/usr/bin/env bash
# Session 49's call B, prepared, not run (carry-B from make-carry-B.sh): the
# fused backward with --f32-staging-bytes=32 (dQ staged in 32-byte column
# blocks: no bank conflicts in its f32 stores): GPU cases and racecheck, then the d = 128 backward old against
# new (bench/compare.py --pass bwd).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/s49 && tar xzf carry-B/cases.tgz -C /tmp/s49
build_tools; echo "tools $(elapsed)"
run_cases /tmp/s49/b $OUT/r
sanitize racecheck /tmp/s49/b $OUT/r
compare_bwd bwd 150 old=carry-B/old,new=carry-B/new
cd $OUT && tar czf r.tgz r && rm -rf r
