#!/usr/bin/env bash
# Session 46's second device call (carry-P: carry-K's d96, d96e, d192,
# d192e, d192z and d192ez made by `DIMS=192 VARIANTS="dense causal"
# SETS="--set lazy_rescale=on --set row_sums=end" bash
# bench/compile-variants.sh carry-P/d192ez`): the forward at d = 192 and 96
# with row_sums=end (e), lazy_rescale=on (z) and both (ez) against the old
# defaults, beside cuDNN (one run each: 220 s).
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r"
P=carry-P PEER=carry-P/peer_sdpa.py
peers fwd 96,192 40 sdpa-fwd
compare_fwd f192 70 192 def=$P/d192,end=$P/d192e,z=$P/d192z,ez=$P/d192ez
compare_fwd f96 45 96 def=$P/d96,end=$P/d96e
