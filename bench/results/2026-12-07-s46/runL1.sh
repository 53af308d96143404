#!/usr/bin/env bash
# Session 46's device call (carry-K remade as carry-M from make-carry-M.sh
# plus session 45's carry-K dirs d96n176, d96n192, d192n80, d192n112s,
# d192n96s, d64n176, d128ring; 420 s). In order of priority:
# 1. GPU cases of row_sums=end (the row sum kept per thread through the key
#    loops), each launched twice, on all programs and on 3.
# 2. The forward with row_sums=end against the defaults: d = 128, d = 64
#    (also with 128- and 176-key blocks); the peers at every dim; d = 256;
#    d = 96 (also 176 and 192 keys); d = 192 (also 80, 112 and 96 keys);
#    d = 128 with last_values=ring.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-K/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/m "$OUT/r"
K=carry-K PEER=carry-K/peer_sdpa.py
compare_fwd f128 45 128 def=$K/d128,end=$K/d128e
compare_fwd f64 70 64 def=$K/d64,end=$K/d64e,n128=$K/d64n128,n128e=$K/d64n128e,n176=$K/d64n176
peers fwd 64,96,128,192,256 75 sdpa-fwd
compare_fwd f256 40 256 def=$K/d256,end=$K/d256e
compare_fwd f96 55 96 def=$K/d96,end=$K/d96e,n176=$K/d96n176,n192=$K/d96n192
compare_fwd f192 65 192 def=$K/d192,end=$K/d192e,n80=$K/d192n80,n112s=$K/d192n112s,n96s=$K/d192n96s
compare_fwd f128r 40 128 def=$K/d128,ring=$K/d128ring
