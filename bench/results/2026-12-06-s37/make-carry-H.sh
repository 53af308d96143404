#!/usr/bin/env bash
# Makes carry-H/ for runH.sh (run from the repository root after
# scripts/build.sh, at the change that stops issuing the overlapped loop's
# first P·V): the sm_90a DEFAULTS and COUNTER GPU cases; the forward at
# d = 112, 128, (192, 128) and 256 (dense, causal) in the new defaults
# (new) and with the change's DSL line reverted (old: `overlapped(masked)`,
# byte-identical to the defaults before at d = 128, checked with cmp);
# peer_sdpa.py. OLD_DIR names the old PTX directory made beforehand.
set -euo pipefail
rm -rf carry-H /tmp/ch /tmp/chc && mkdir -p carry-H
DEFAULTS=1 bash scripts/gpu-cases.sh /tmp/ch
COUNTER=1 bash scripts/gpu-cases.sh /tmp/chc
# Only the cases whose PTX the change touches (the whole sets are over the carry limit):
rm -rf /tmp/chsel && mkdir -p /tmp/chsel/ch /tmp/chsel/chc
cp -r /tmp/ch/sm90a_d192v128* /tmp/ch/sm90a_d256* /tmp/ch/sm90a_ov_* /tmp/chsel/ch/
cp -r /tmp/chc/sm90a_d128* /tmp/chc/sm90a_d256* /tmp/chsel/chc/
rm -rf /tmp/chsel/ch/sm90a_d192v128_fwd_{alibi,softcap,sliding_window}_ragged  # (64 MiB)
tar czf carry-H/cases.tgz -C /tmp/chsel ch chc
DIMS="112 128 192v128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-H/new
mkdir -p carry-H/old && cp ${OLD_DIR:-/tmp/old/head}/flash_attention_fwd*-d{112,128,192v128,256}.* carry-H/old/
rm -f carry-H/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-H/
du -sh carry-H
