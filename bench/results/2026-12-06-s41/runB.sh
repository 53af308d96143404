#!/usr/bin/env bash
# Session 41's call B (make-carry-B.sh): the backward's kernels timed one by
# one (tilec-bench prints each row's prep, main and dQ kernels' times).
# On the device: rm -rf carry && mv carry-B carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools
timeout 200 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/b-tilec \
  --seqlens=1024,4096,16384 --json=$OUT/r/parts.json > $OUT/r/parts.txt 2>&1
echo "parts rc $?"
cat $OUT/r/parts.txt
