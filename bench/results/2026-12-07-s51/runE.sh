#!/usr/bin/env bash
# Session 51's call E: call D (runD.sh, carry-D) cut to what little device
# time was left: the d = 128 backward as it is (lse) against arr
# (arrive_staging.py's bound), two reps, then cuDNN's backward
# (peer_sdpa.py --pass bwd) in the same call.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
PEER=carry-D/peer_sdpa.py
compare_bwd bwd 130 lse=carry-D/lse,arr=carry-D/arr
peers bwd 128 70 peers-bwd
cd $OUT && tar czf r.tgz r && rm -rf r
