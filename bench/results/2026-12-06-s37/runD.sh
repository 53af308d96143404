#!/usr/bin/env bash
# Session 37's call D: host cost per launch of the Python path against the
# kernel's time (hostcost.py), causal and dense d = 128 at N = 1k and 2k,
# three processes each. Carry: carry-C (same as call C).
for p in 1 2 3; do
  for spec in "causal 1024" "causal 2048" "dense 1024"; do
    set -- $spec; f=flash_attention_fwd_causal-d128.ptx; c=--causal
    [ $1 = dense ] && { f=flash_attention_fwd-d128.ptx; c=; }
    timeout 60 python3 bench/results/2026-12-06-s37/hostcost.py --ptx carry/head/$f $c --n $2 2>&1 | tail -3
  done
done
