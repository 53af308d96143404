#!/usr/bin/env bash
# Session 48's call O (carry-O from make-carry-O.sh): (192, 128) with
# next_pv, its cases, then the forward grid of session 48's defaults timed
# alternately with cuDNN in one process.
. bench/results/lib.sh
set -o pipefail # the timings' rc, not tee's
call_header
mkdir -p $OUT/r /tmp/s48 && tar xzf carry-O/cases.tgz -C /tmp/s48
build_run_case; echo "build $(elapsed)"
run_cases /tmp/s48/o "$OUT/r"
O=carry-O
timeout 100 python3 bench/ab_cudnn.py --ptx-dir def=$O/def --ptx-dir nextpv=$O/nextpv --dims 192v128 \
  --json $OUT/r/ab-v128.json 2>&1 | tee $OUT/r/ab-v128.txt
echo "ab v128 rc $? $(elapsed)"
timeout 200 python3 bench/ab_cudnn.py --ptx-dir def=$O/def --dims 64,96,128,192,256 \
  --json $OUT/r/ab-grid.json 2>&1 | tee $OUT/r/ab-grid.txt
echo "ab grid rc $? $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
