#!/usr/bin/env bash
# Session 47's call I (carry-H47 from make-carry-H.sh): the forward
# defaults against cuDNN timed alternately in one process
# (bench/ab_cudnn.py as it was then: cuDNN first in both rounds), nvidia-smi logging the SM clock and power beside it.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw --format=csv,noheader -lms 100 > $OUT/r/smi.csv 2>&1 &
smi=$!
timeout 200 python3 bench/ab_cudnn.py --ptx-dir carry-H47/def --dims 128,256,64,96,192 \
  --json $OUT/r/ab.json 2>&1 | tee $OUT/r/ab.txt
echo "ab rc $? $(elapsed)"
kill $smi
cd $OUT && tar czf r.tgz r && rm -rf r
