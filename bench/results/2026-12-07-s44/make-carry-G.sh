#!/usr/bin/env bash
# Makes carry-G/ for runG.sh (from the repository root after
# scripts/build.sh, and after session 43's make-carry-F.sh, whose carry-F/
# travels beside it): the d = 128 fused backward persistent with tiles from
# a counter, scanning (ctr) and bisecting (ctrb) its query ranges; the
# Python package's kernels with the current defaults; peer_sdpa.py.
set -euo pipefail
carry=carry-G
rm -rf $carry && mkdir -p $carry
DIMS=128 FUSED_FLAGS="--persistent --tile-counter" bash bench/compile-bwd.sh $carry/b-ctr
DIMS=128 FUSED_FLAGS="--persistent --tile-counter --set query_ranges=bisect" \
  bash bench/compile-bwd.sh $carry/b-ctrb
bash scripts/compile-torch-kernels.sh $carry/torch-ptx > /dev/null
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
