#!/usr/bin/env bash
# Makes carry-S/ for runS.sh (run from the repository root after
# scripts/build.sh): --tile-slots=2 (Q on two slots: the producer loads
# the next tile's Q while the consumers work on this one) — its GPU cases
# (the persistent set with the counter and two slots, d = 80, 96, 128) and
# the d = 80, 96, 128 forward kernels: head (the defaults, dense and
# causal), and dense in p (--persistent) and ps (+ --tile-slots=2), causal
# at d = 96 and 128 in pc (--persistent --tile-counter) and pcs
# (+ --tile-slots=2). At d = 128, Q on two slots leaves no room for O's
# staging buffer: O leaves from registers (tilegpu-tma-stores).
# peer_sdpa.py.
set -euo pipefail
rm -rf carry-S /tmp/cs && mkdir -p carry-S
COUNTER=1 TILE_SLOTS=2 bash scripts/gpu-cases.sh /tmp/cs
tar czf carry-S/cases.tgz -C /tmp cs
dims="80 96"
DIMS=$dims VARIANTS="dense causal" bash bench/compile-variants.sh carry-S/head
DIMS=$dims VARIANTS=dense SETS=--persistent bash bench/compile-variants.sh carry-S/p
DIMS=$dims VARIANTS=dense SETS="--persistent --tile-slots=2" bash bench/compile-variants.sh carry-S/ps
DIMS=128 VARIANTS="dense causal" bash bench/compile-variants.sh carry-S/head
DIMS=128 VARIANTS=dense SETS=--persistent bash bench/compile-variants.sh carry-S/p
DIMS=128 VARIANTS=dense SETS="--persistent --tile-slots=2" bash bench/compile-variants.sh carry-S/ps
DIMS="96 128" VARIANTS=causal SETS="--persistent --tile-counter" bash bench/compile-variants.sh carry-S/pc
DIMS="96 128" VARIANTS=causal SETS="--persistent --tile-counter --tile-slots=2" bash bench/compile-variants.sh carry-S/pcs
rm -f carry-S/*/flash_attention_block_mask_document.ptx carry-S/*/flash_attention_block_mask_document.json
cp ../shared/tools/peer_sdpa.py carry-S/
du -sh carry-S
