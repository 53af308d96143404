#!/usr/bin/env bash
# Session 47's call H (carry-H47 from make-carry-H.sh): the forward and
# backward grid at 1k / 4k / 16k beside the peers, every process's first
# timing after 1.5 s of warm-up (ours: bench/timing.py, tilec-bench; the
# peers': bench/peer_warm.py), nvidia-smi logging the SM clock and power
# every 100 ms throughout (r/smi.csv).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 100 > $OUT/r/smi.csv 2>&1 &
smi=$!
H=carry-H47 PEER=carry-H47/peer_sdpa.py
compare_fwd f 150 64,96,128,192,256 def=$H/def
peers fwd 64,96,128,192,256 110 sdpa-fwd
build_tools; echo "build bench $(elapsed)"
compare_bwd b 90 def=$H/bwd
peers bwd 64,128 70 sdpa-bwd
kill $smi
cd $OUT && tar czf r.tgz r && rm -rf r
