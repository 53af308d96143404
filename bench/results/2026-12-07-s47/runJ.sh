#!/usr/bin/env bash
# Session 47's call J (carry-J from make-carry-J.sh; prepared, not run):
# rescale_at=next_pv's GPU cases (twice each, on all programs and on 3;
# racecheck), then timed alternately with cuDNN in one process
# (bench/ab_cudnn.py): d = 128, 192, 256 default against next_pv, and
# d = 192's forms, at N = 1k, 4k and 16k.
. bench/results/lib.sh
set -o pipefail # the timings' rc, not tee's
call_header
mkdir -p $OUT/r && tar xzf carry-J/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/j "$OUT/r"
mkdir -p /tmp/jrc && cp -r /tmp/j/d128_counter_causal /tmp/j/d256_ragged /tmp/jrc/
sanitize racecheck /tmp/jrc "$OUT/r"
J=carry-J
timeout 150 python3 bench/ab_cudnn.py --ptx-dir def=$J/def --ptx-dir nextpv=$J/nextpv --dims 128,256,192 \
  --json $OUT/r/ab-nextpv.json 2>&1 | tee $OUT/r/ab-nextpv.txt
echo "ab nextpv rc $? $(elapsed)"
timeout 150 python3 bench/ab_cudnn.py --ptx-dir def=$J/def --ptx-dir qs=$J/qs --ptx-dir s3=$J/s3 \
  --ptx-dir s3qs=$J/s3qs --ptx-dir n80=$J/n80 --dims 192 --seqlens 1024,4096 \
  --json $OUT/r/ab192.json 2>&1 | tee $OUT/r/ab192.txt
echo "ab 192 rc $? $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
