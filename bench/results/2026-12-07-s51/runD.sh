#!/usr/bin/env bash
# Session 51's call D (carry-D from make-carry-D.sh): the d = 128 backward,
# default against statistics=lse_top, two reps, then cuDNN's backward
# (peer_sdpa.py --pass bwd) in the same call; then the d = 64 dense forward,
# default and seq_schedule=long, beside cuDNN in turn (ab_cudnn.py).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
PEER=carry-D/peer_sdpa.py
compare_bwd bwd 150 def=carry-D/def,lse=carry-D/lse
peers bwd 128 90 peers-bwd
timeout 120 python3 bench/ab_cudnn.py --ptx-dir def=carry-D/f64def --ptx-dir long=carry-D/f64long \
  --dims 64 --variants dense --json $OUT/r/ab64.json > $OUT/r/ab64.txt 2>&1
echo "ab64 rc $? $(elapsed)"; cat $OUT/r/ab64.txt
cd $OUT && tar czf r.tgz r && rm -rf r
