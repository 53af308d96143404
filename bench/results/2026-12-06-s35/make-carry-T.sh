#!/usr/bin/env bash
# Makes carry-T/ for runT0.sh, runT1.sh and runT1b.sh (run from the
# repository root after scripts/build.sh): the tile-counter GPU cases, the
# d = 96/128/256 forward kernels with the defaults and with
# --persistent --tile-counter, session 34's prepared P and Q kernels, and
# peer_sdpa.py.
set -euo pipefail
rm -rf carry-T /tmp/cc && mkdir -p carry-T
COUNTER=1 bash scripts/gpu-cases.sh /tmp/cc
tar czf carry-T/cases.tgz -C /tmp cc
DIMS="128 96" VARIANTS="dense causal" bash bench/compile-variants.sh carry-T/c_head
DIMS=128 VARIANTS="dense causal" SETS="--persistent --tile-counter" bash bench/compile-variants.sh carry-T/c_tc
DIMS=96 VARIANTS=dense SETS="--persistent --tile-counter" bash bench/compile-variants.sh carry-T/c_tc
DIMS=256 VARIANTS="dense causal" bash bench/compile-variants.sh carry-T/h_head
DIMS=256 VARIANTS="dense causal" SETS="--persistent --tile-counter" bash bench/compile-variants.sh carry-T/h_tc
DIMS=96 VARIANTS="dense causal" bash bench/compile-variants.sh carry-T/p_head
DIMS=96 VARIANTS=dense SETS=--persistent=false bash bench/compile-variants.sh carry-T/p_alt
DIMS=96 VARIANTS=causal SETS=--persistent bash bench/compile-variants.sh carry-T/p_alt
DIMS=128 VARIANTS="dense causal" SETS="--a-in-shared=false --persistent" bash bench/compile-variants.sh carry-T/q_qreg
cp ../shared/tools/peer_sdpa.py carry-T/
du -sh carry-T
