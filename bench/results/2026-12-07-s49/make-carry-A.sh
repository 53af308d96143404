#!/usr/bin/env bash
# Makes carry-A/ for runA.sh (from the repository root after
# scripts/build.sh): session 48's call O (the forward grid with its defaults,
# (192, 128) with rescale_at=next_pv and its GPU cases), plus the d = 128
# backward set (bench/compile-bwd.sh), and with the fused kernel's dQ after
# dK's dot (after_dk), FlashAttention-3's order (dot_before_dk) and three
# ring slots (st3); peer_sdpa.py for the peers' backward.
set -euo pipefail
bash bench/results/2026-12-07-s48/make-carry-O.sh
carry=carry-A
rm -rf $carry && mkdir -p $carry
DIMS=128 bash bench/compile-bwd.sh $carry/bwd > /dev/null
for o in after_dk dot_before_dk; do
  DIMS=128 FUSED_FLAGS="--set dq_order=$o" bash bench/compile-bwd.sh $carry/$o > /dev/null
done
DIMS=128 FUSED_FLAGS="--pipeline-stages=3" bash bench/compile-bwd.sh $carry/st3 > /dev/null
cp ../shared/tools/peer_sdpa.py $carry/
du -sh carry-O $carry
