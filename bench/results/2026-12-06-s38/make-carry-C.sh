#!/usr/bin/env bash
# Makes carry-C/ for runC.sh (run from the repository root after
# scripts/build.sh, with causal d = 112 and 128 taking Q on two slots by
# default and causal d = 112 persistent): the tile-counter cases with two
# Q slots (d = 80, 96, 128) and the causal d = 112 head-dim cases, in the
# new defaults; the forward grid (d = 64, 96, 112, 128, (192, 128), 256,
# dense and causal) in the defaults before (old: OLD_DIR, compiled at the
# previous commit) and now (new); peer_sdpa.py.
set -euo pipefail
rm -rf carry-C /tmp/cc /tmp/ccs /tmp/cch && mkdir -p carry-C /tmp/cc/c
TILE_SLOTS=2 COUNTER=1 bash scripts/gpu-cases.sh /tmp/ccs
ARCHS=sm_90a HEADDIMS=1 bash scripts/gpu-cases.sh /tmp/cch
cp -r /tmp/ccs/* /tmp/cc/c/
cp -r /tmp/cch/sm90a_d112_f16_{fwd_causal,split_fwd_causal,varlen_causal} /tmp/cc/c/
rm -rf /tmp/cc/c/sm90a_d128_fwd_gqa_bh /tmp/cc/c/sm90a_d128_fwd_bh  # (the carry's 64 MiB)
tar czf carry-C/cases.tgz -C /tmp/cc c
mkdir -p carry-C/old && cp ${OLD_DIR:-/tmp/oldC}/*.ptx ${OLD_DIR:-/tmp/oldC}/*.json carry-C/old/
DIMS="64 96 112 128 192v128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-C/new
rm -f carry-C/*/flash_attention_block_mask_document.*
cp ../shared/tools/peer_sdpa.py carry-C/
du -sh carry-C
