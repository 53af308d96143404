#!/usr/bin/env bash
# Session 47's call J (carry-J from make-carry-J.sh): d = 192's forms
# against each other and cuDNN, timed alternately in one process
# (bench/ab_cudnn.py), N = 1k and 4k.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
J=carry-J
timeout 150 python3 bench/ab_cudnn.py --ptx-dir def=$J/def --ptx-dir qs=$J/qs --ptx-dir s3=$J/s3 \
  --ptx-dir s3qs=$J/s3qs --ptx-dir n80=$J/n80 --dims 192 --seqlens 1024,4096 \
  --json $OUT/r/ab192.json 2>&1 | tee $OUT/r/ab192.txt
echo "ab rc $? $(elapsed)"
