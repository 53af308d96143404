#!/usr/bin/env bash
# Session 51's call E: call D (runD.sh, carry-D) cut to what little device
# time was left: consumer_barriers=one's GPU cases, then the d = 128
# backward as it is (lse) against one and arr (arrive_staging.py's bound), two reps, then cuDNN's backward
# (peer_sdpa.py --pass bwd) in the same call.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
PEER=carry-D/peer_sdpa.py
mkdir -p /tmp/s51 && tar xzf carry-D/cases.tgz -C /tmp/s51 && mkdir -p /tmp/s51/one && cp -r /tmp/s51/d/one_* /tmp/s51/one/
run_cases /tmp/s51/one $OUT/r
compare_bwd bwd 150 lse=carry-D/lse,one=carry-D/one,arr=carry-D/arr
peers bwd 128 70 peers-bwd
cd $OUT && tar czf r.tgz r && rm -rf r
