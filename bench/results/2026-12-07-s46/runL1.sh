#!/usr/bin/env bash
# Session 46's first device call: the forwards session 45's call K did not
# reach (its carries, carry-K from session 45's make-carry-K.sh), beside
# cuDNN in the same call. In order of priority: the peers at d = 64, 96,
# 128, 192; d = 64 with 128- and 176-key blocks against its default (64
# keys); d = 96 (176, 192 keys); d = 192 (80, 112 and 96 keys, the last two
# with Q in shared memory); d = 128's default with last_values=ring.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r"
K=carry-K PEER=carry-K/peer_sdpa.py
peers fwd 64,96,128,192 75 sdpa-fwd
compare_fwd f64 65 64 def=$K/d64,n128=$K/d64n128,n176=$K/d64n176
compare_fwd f96 65 96 def=$K/d96,n176=$K/d96n176,n192=$K/d96n192
compare_fwd f192 90 192 def=$K/d192,n80=$K/d192n80,n112s=$K/d192n112s,n96s=$K/d192n96s
compare_fwd f128r 50 128 def=$K/d128,ring=$K/d128ring
