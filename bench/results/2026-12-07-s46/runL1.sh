#!/usr/bin/env bash
# Session 46's device call, 420 s. Its carry-K: every dir of carry-M
# (make-carry-M.sh) but its cases, session 45's carry-K dirs d96n176,
# d96n192, d192n80, d192n112s, d192n96s, d64n176, d128ring, carry-N's
# (make-carry-N.sh) PTX dirs, and cases.tgz: carry-M's and carry-N's cases
# in one folder m/, less d256_causal_multi, d256_causal_nq_gt_nk, d128_n176,
# z256_ragged, z128_causal_nq_gt_nk (64 MiB). In order of priority:
# 1. GPU cases of row_sums=end and lazy_rescale=on, each launched twice, on
#    all programs and on 3.
# 2. The forward with row_sums=end (e), lazy_rescale=on (z) and both (ez)
#    against the defaults: d = 128, d = 256; the peers at every dim; d = 64
#    (also with 128-key blocks), d = 96 (also 176 and 192 keys), d = 192
#    (also 80, 112 and 96 keys).
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-K/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/m "$OUT/r"
K=carry-K PEER=carry-K/peer_sdpa.py
compare_fwd f128 60 128 def=$K/d128,end=$K/d128e,z=$K/d128z,ez=$K/d128ez
compare_fwd f256 50 256 def=$K/d256,z=$K/d256z,ez=$K/d256ez,end=$K/d256e
peers fwd 64,96,128,192,256 75 sdpa-fwd
compare_fwd f64 65 64 def=$K/d64,end=$K/d64e,z=$K/d64z,n128=$K/d64n128,n128e=$K/d64n128e
compare_fwd f96 55 96 def=$K/d96,end=$K/d96e,z=$K/d96z,n176=$K/d96n176,n192=$K/d96n192
compare_fwd f192 65 192 def=$K/d192,end=$K/d192e,z=$K/d192z,n80=$K/d192n80,n112s=$K/d192n112s,n96s=$K/d192n96s
