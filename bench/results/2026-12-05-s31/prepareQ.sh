#!/usr/bin/env bash
# Session 31's call Q: the causal forward at d = 80, 96 and 112 as a
# persistent grid in sections of heads (tile-persistent-grid's new default)
# against one program a tile (their default), beside cuDNN; and the new
# default causal d = 128 kernel (persistent) as a GPU case, ragged N, alone
# and under racecheck. Then runQ.sh.
set -euo pipefail
rm -rf carry-Q && mkdir -p carry-Q/cases
cp ../shared/tools/peer_sdpa.py carry-Q/
DIMS="80 96 112" VARIANTS="causal" bash bench/compile-variants.sh carry-Q/def > /dev/null
DIMS="80 96 112" VARIANTS="causal" SETS=--persistent bash bench/compile-variants.sh carry-Q/pers > /dev/null
build/bin/tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 \
  --size batch=2 --size heads=3 --size seq_q=1000 --size seq_k=1000 \
  --export-case=carry-Q/cases/sm90a_causal_d128_persistent > /dev/null
grep -q '"persistent": true' carry-Q/cases/sm90a_causal_d128_persistent/*.json
DTYPES="bf16 f16" DIMS="64 128" bash scripts/compile-torch-kernels.sh carry-Q/torch-ptx > /dev/null
DIMS="64 128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-Q/head > /dev/null
echo "carry-Q: $(du -sm carry-Q | cut -f1) MiB"
