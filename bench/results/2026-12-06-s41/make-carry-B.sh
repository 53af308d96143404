#!/usr/bin/env bash
# Makes carry-B/ for runB.sh: the d = 64 and 128 backward sets (dense,
# causal) with the landed defaults, to time each kernel of a backward on
# its own (prep, fused or dK/dV, convert or dQ).
set -euo pipefail
rm -rf carry-B && mkdir -p carry-B
DIMS="64 128" VARIANTS="dense causal" bash bench/compile-bwd.sh carry-B/b-tilec
du -sh carry-B
