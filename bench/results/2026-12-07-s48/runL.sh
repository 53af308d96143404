#!/usr/bin/env bash
# Session 48's call L (carry-L from make-carry-L.sh): GPU cases of
# --keep-work-above-waits and of next_pv's d = 192 forms (on all programs
# and on 3; racecheck), then timed alternately with cuDNN in one process.
. bench/results/lib.sh
set -o pipefail # the timings' rc, not tee's
call_header
mkdir -p $OUT/r /tmp/s48 && tar xzf carry-L/cases.tgz -C /tmp/s48
build_run_case; echo "build $(elapsed)"
run_cases /tmp/s48/l "$OUT/r"
mkdir -p /tmp/lrc && cp -r /tmp/s48/l/d192_causal /tmp/s48/l/d128_counter_causal /tmp/s48/l/d192_np80_causal /tmp/lrc/
sanitize racecheck /tmp/lrc "$OUT/r"
echo "cases done $(elapsed)"
L=carry-L
timeout 200 python3 bench/ab_cudnn.py --ptx-dir def=$L/def --ptx-dir nextpv=$L/nextpv --ptx-dir kw=$L/kw \
  --ptx-dir npqs=$L/npqs --ptx-dir nps3=$L/nps3 --ptx-dir np80=$L/np80 --dims 192 \
  --json $OUT/r/ab192.json 2>&1 | tee $OUT/r/ab192.txt
echo "ab 192 rc $? $(elapsed)"
timeout 120 python3 bench/ab_cudnn.py --ptx-dir def=$L/def --ptx-dir nextpv=$L/nextpv --dims 128 \
  --json $OUT/r/ab128.json 2>&1 | tee $OUT/r/ab128.txt
echo "ab 128 rc $? $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
