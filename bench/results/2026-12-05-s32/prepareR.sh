#!/usr/bin/env bash
# Session 32's calls R and R2 (runR.sh, runR2.sh): made at fabbd9a's
# compiler (the rings released on "empty" mbarriers), with head/ from call E
# (prepareE.sh's fma0: the compiler before the change).
set -euo pipefail
rm -rf carry-R /tmp/bwdc /tmp/infc && mkdir -p carry-R
DEFAULTS=1 bash scripts/gpu-cases.sh carry-R/cases > /dev/null
rm -rf carry-R/cases/sm90a_d256* carry-R/cases/sm90a_ov_d256*
BWD=1 bash scripts/gpu-cases.sh /tmp/bwdc > /dev/null
INFER=1 bash scripts/gpu-cases.sh /tmp/infc > /dev/null
for c in $(ls /tmp/bwdc | grep -E "^sm90a_bwd_dq_|^sm90a_bwd_dkdv_(sliding_window|softcap)"); do cp -r /tmp/bwdc/$c carry-R/cases/; done
for c in $(ls /tmp/infc | grep sm90a_decode_paged); do cp -r /tmp/infc/$c carry-R/cases/; done
DIMS="64" VARIANTS="dense causal sliding_window gqa" bash bench/compile-variants.sh carry-R/rel > /dev/null
cp -r carry-E/fma0 carry-R/head
cp ../shared/tools/peer_sdpa.py carry-R/
