#!/usr/bin/env bash
# Makes carry-E/ (from the repository root after scripts/build.sh) for
# runE.sh: the persistent d = 256 forward with O staged in Q's slot
# (tilegpu-tma-stores' fallback from session 47: before, nothing had O's
# 64 KiB beside Q and the K/V ring, and O left from registers, 64
# predicated stores a thread: the persistent grid measured 0.83-0.91x one
# program a tile at N = 1k in call Q) against the default (one program a
# tile), static and with the tile counter, for bench/compare.py; and its
# GPU cases: ragged sizes, several heads, rows with no key, GQA, f16, a
# sliding window, tiny.
set -euo pipefail
carry=carry-E cases=/tmp/s47e/e CASE_FLAGS="--set head_dim=256 --persistent"
. bench/results/carry-lib.sh
rm -rf $carry $cases && mkdir -p $carry $cases
comp d256 256 ""
comp d256p 256 "--persistent"
comp d256pc 256 "--persistent --tile-counter"
exp ragged flash_attention_fwd --size batch=2 --size heads=2 --size seq_q=300 --size seq_k=333
exp causal_nq_gt_nk flash_attention_fwd_causal --size seq_q=600 --size seq_k=45
exp causal_counter flash_attention_fwd_causal --tile-counter --size batch=2 --size heads=2 \
  --size seq_q=400 --size seq_k=390 --size amplitude=8
exp gqa3 flash_attention_fwd_gqa --set group=3 --size heads=6 --size seq_q=77 --size seq_k=390
exp f16 flash_attention_fwd --set dtype=f16 --size heads=3 --size seq_q=257 --size seq_k=140
exp window flash_attention_fwd_sliding_window --set window=100 --size seq_q=400 --size seq_k=401
exp tiny flash_attention_fwd --size seq_q=5 --size seq_k=3
tar czf $carry/cases.tgz -C $(dirname $cases) e
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
