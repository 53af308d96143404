#!/usr/bin/env bash
# Session 48's call K (carry-K from make-carry-K.sh): the P·V wait pinned
# below the softmax (a never-taken store of the row sums before
# wgmma.wait_group, so that ptxas cannot hoist the wait above the exp2s),
# on the default and on rescale_at=next_pv: GPU cases of both (pinned PTX),
# racecheck, then timed alternately with cuDNN in one process
# (bench/ab_cudnn.py) at d = 128, 256, 192.
. bench/results/lib.sh
set -o pipefail # the timings' rc, not tee's
call_header
mkdir -p $OUT/r /tmp/s48 && tar xzf carry-K/cases.tgz -C /tmp/s48
build_run_case; echo "build $(elapsed)"
run_cases /tmp/s48/kp "$OUT/r"
run_cases /tmp/s48/jp "$OUT/r"
mkdir -p /tmp/krc && cp -r /tmp/s48/jp/d128_counter_causal /tmp/s48/kp/d256_causal /tmp/s48/kp/d192_ragged /tmp/krc/
sanitize racecheck /tmp/krc "$OUT/r"
echo "cases done $(elapsed)"
K=carry-K
timeout 330 python3 bench/ab_cudnn.py --ptx-dir def=$K/def --ptx-dir pin=$K/pin --ptx-dir nextpv=$K/nextpv \
  --ptx-dir npin=$K/npin --dims 128,256,192 --json $OUT/r/ab-pin.json 2>&1 | tee $OUT/r/ab-pin.txt
echo "ab pin rc $? $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
