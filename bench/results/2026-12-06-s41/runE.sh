#!/usr/bin/env bash
# Session 41's call E (make-carry-E.sh): dq_convert=last_program's GPU cases
# on the other lowerings, each launched twice; memcheck on two.
# On the device: rm -rf carry && mv carry-E carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c && tar xzf carry/cases.tgz -C /tmp/c
build_run_case
run_cases /tmp/c/c $OUT/r
mkdir -p /tmp/one && cp -r /tmp/c/c/lp80_fused_causal_d64 /tmp/c/c/lptl_fused_d128_ragged /tmp/one/
sanitize memcheck /tmp/one $OUT/r
cd $OUT && tar czf r.tgz r && rm -rf r
