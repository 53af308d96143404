#!/usr/bin/env bash
# Makes carry-E/ for runE.sh: the d = 64 backward sets with the landed
# defaults (the fused kernel's 128-row [queries, keys] step for every
# FlashAttention-3-shaped variant), for timing beside cuDNN in one call.
set -euo pipefail
rm -rf carry-E && mkdir -p carry-E
DIMS=64 bash bench/compile-bwd.sh carry-E/b-tilec
cp /work/shared/tools/peer_sdpa.py carry-E/
du -sh carry-E
