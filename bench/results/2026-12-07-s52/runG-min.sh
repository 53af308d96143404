#!/usr/bin/env bash
# Session 52's call G cut to the device time left (about 4 minutes): the new
# fused defaults' GPU cases (carry-G) on all programs and on 3, racecheck on
# three of them.
. bench/results/lib.sh
call_header > $OUT/header.txt; cat $OUT/header.txt; t0=$(date +%s)
mkdir -p $OUT/r /tmp/s52
build_run_case; echo "run-case $(elapsed)"
tar xzf carry-G/cases.tgz -C /tmp/s52
run_cases /tmp/s52/g $OUT/r
mkdir -p /tmp/s52/race && cp -r /tmp/s52/g/g_prefix /tmp/s52/g/g_gqa3 /tmp/s52/g/g_causal_f16 /tmp/s52/race/
sanitize racecheck /tmp/s52/race $OUT/r
echo "done $(elapsed)"
