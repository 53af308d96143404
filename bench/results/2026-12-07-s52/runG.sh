#!/usr/bin/env bash
# Session 52's call G (carry-G and carry-F): the new fused defaults' GPU
# cases (d = 128: dQ's dot before dK's, one consumer barrier) on all
# programs and on 3, racecheck on four and synccheck on two; then call F's
# def and dqdot sets again, two reps, beside cuDNN's backward (what the
# device time left allows; the cases and sanitizers first).
. bench/results/lib.sh
call_header > $OUT/header.txt; cat $OUT/header.txt; t0=$(date +%s)
mkdir -p $OUT/r
build_run_case; echo "run-case $(elapsed)"
mkdir -p /tmp/s52 && tar xzf carry-G/cases.tgz -C /tmp/s52
run_cases /tmp/s52/g $OUT/r
mkdir -p /tmp/s52/race /tmp/s52/sync && cp -r /tmp/s52/g/g_ragged /tmp/s52/g/g_causal_f16 /tmp/s52/g/g_gqa3 \
  /tmp/s52/g/g_prefix /tmp/s52/race/ && cp -r /tmp/s52/g/g_causal /tmp/s52/g/g_gqa3 /tmp/s52/sync/
sanitize racecheck /tmp/s52/race $OUT/r
sanitize synccheck /tmp/s52/sync $OUT/r
PEER=carry-F/peer_sdpa.py
cmake --build build-gpu --target tilec-bench > /dev/null 2>&1
compare_bwd bwd 130 def=carry-F/def,dqdot=carry-F/dqdot
peers bwd 128 90 peers-bwd
cd $OUT && tar czf r.tgz r && rm -rf r
