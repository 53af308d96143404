#!/usr/bin/env bash
# Makes carry-B/ for runB.sh: the d = 64 backward sets with the fused
# kernel's dQ share in each order (dq_order) beside its new 128-row,
# [queries, keys] step (default: dot_before_dk).
set -euo pipefail
rm -rf carry-B && mkdir -p carry-B
DIMS=64 bash bench/compile-bwd.sh carry-B/b-dflt
DIMS=64 FUSED_FLAGS="--set dq_order=before_dk" bash bench/compile-bwd.sh carry-B/b-before
DIMS=64 FUSED_FLAGS="--set dq_order=after_dk" bash bench/compile-bwd.sh carry-B/b-after
du -sh carry-B
