#!/usr/bin/env bash
# Session 46's second device call (carries carry-M from make-carry-M.sh and
# carry-H from session 44's make-carries.sh). In order of priority:
# 1. GPU cases of row_sums=end (the row sum kept per thread through the key
#    loops), each launched twice, on all programs and on 3.
# 2. The forward with row_sums=end against the defaults, beside cuDNN:
#    d = 128, d = 64 (also with 128-key blocks), d = 256; the peers; d = 96
#    and 192.
# 3. Session 44's d = 128 backward (default against persistent with a tile
#    counter, with and without the opaque shared offsets) beside cuDNN's.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" /tmp/m && tar xzf carry-M/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/m "$OUT/r"
M=carry-M H=carry-H PEER=carry-M/peer_sdpa.py
compare_fwd f128 50 128 def=$M/d128,end=$M/d128e
compare_fwd f64 75 64 def=$M/d64,end=$M/d64e,n128=$M/d64n128,n128e=$M/d64n128e
compare_fwd f256 50 256 def=$M/d256,end=$M/d256e
peers fwd 64,96,128,192,256 80 sdpa-fwd
compare_fwd f96 45 96 def=$M/d96,end=$M/d96e
compare_fwd f192 45 192 def=$M/d192,end=$M/d192e
build_tools; echo "build bench $(elapsed)"
compare_bwd b128 100 def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb
peers bwd 128 45 sdpa-bwd
