#!/usr/bin/env bash
# Makes carry-G/ for runG.sh (from the repository root after
# scripts/build.sh, and after session 43's make-carry-F.sh, whose carry-F/
# travels beside it): the d = 128 fused backward persistent with tiles from
# a counter, scanning (ctr) and bisecting (ctrb) its query ranges;
# peer_sdpa.py. (The Python package's kernels left out: with them the
# carries are over the 64 MiB.)
set -euo pipefail
carry=carry-G
rm -rf $carry && mkdir -p $carry
DIMS=128 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-ctr
DIMS=128 FUSED_FLAGS="--persistent --tile-counter --set query_ranges=bisect" \
  bash bench/compile-bwd.sh $carry/b-ctrb
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
