#!/usr/bin/env bash
# Session 47's call D (carry-D from make-carry-D.sh): row_sums=dot's GPU
# cases (each launched twice, on all programs and on 3; racecheck on the
# persistent counter case), then its speed against the defaults beside
# cuDNN, d = 128, 64, 256 first.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-D/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/d "$OUT/r"
mkdir -p /tmp/rc && cp -r /tmp/d/d128_counter_causal /tmp/d/d64_causal_multi /tmp/rc/
sanitize racecheck /tmp/rc "$OUT/r"
D=carry-D PEER=carry-D/peer_sdpa.py
compare_fwd f128 50 128 def=$D/d128,dot=$D/d128s
compare_fwd f64 50 64 def=$D/d64,dot=$D/d64s
compare_fwd f256 50 256 def=$D/d256,dot=$D/d256s
peers fwd 64,96,128,192,256 80 sdpa-fwd
compare_fwd f96 40 96 def=$D/d96,dot=$D/d96s
compare_fwd f192 40 192 def=$D/d192,dot=$D/d192s
cd $OUT && tar czf r.tgz r && rm -rf r
