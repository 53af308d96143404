#!/usr/bin/env bash
# Makes carry-D/ (from the repository root after scripts/build.sh) for
# runD.sh: the row sums as P·1 on the tensor cores beside P·V
# (row_sums=dot; the SASS key loop 463 -> 418 instructions at d = 128,
# 274 -> 254 at d = 64, 404 -> 383 at d = 256: no FADD left in it) against
# the defaults (row_sums=end), for bench/compare.py (dense and causal at
# d = 64, 96, 128, 192, 256), and its GPU cases: ragged sizes, rows with no
# key (causal N_q > N_k), several heads, f16, GQA 3, key parts (the sum of
# the narrow parts on mma.sync), the lazy rescale (peaked scores), a
# persistent causal grid with tiles from a counter, Q on two slots (d = 96),
# (192, 128), a sliding window, ALiBi, listed blocks (document mask),
# variable lengths, sm_80.
set -euo pipefail
carry=carry-D cases=/tmp/s47d/d CASE_FLAGS="--set row_sums=dot"
. bench/results/carry-lib.sh
rm -rf $carry $cases && mkdir -p $carry $cases
for d in 64 128 256 96 192; do
  comp d$d $d ""
  comp d${d}s $d "--set row_sums=dot"
done
for d in 64 128 256; do
  exp d${d}_ragged flash_attention_fwd --set head_dim=$d --size heads=2 --size seq_q=300 --size seq_k=333
  exp d${d}_causal_nq_gt_nk flash_attention_fwd_causal --set head_dim=$d --size seq_q=600 --size seq_k=45
  exp d${d}_causal_multi flash_attention_fwd_causal --set head_dim=$d --size batch=2 --size heads=2 \
    --size seq_q=257 --size seq_k=390 --size amplitude=8
  exp d${d}_f16 flash_attention_fwd --set head_dim=$d --set dtype=f16 --size seq_q=130 --size seq_k=140
done
exp d128_n48_causal flash_attention_fwd_causal --set head_dim=128 --set block_n=48 --size seq_q=300 --size seq_k=290
exp d128_counter_causal flash_attention_fwd_causal --set head_dim=128 --persistent --tile-counter \
  --size batch=2 --size heads=2 --size seq_q=400 --size seq_k=390
exp d96_causal flash_attention_fwd_causal --set head_dim=96 --size heads=2 --size seq_q=300 --size seq_k=333
exp d192_ragged flash_attention_fwd --set head_dim=192 --size seq_q=200 --size seq_k=301 --size amplitude=8
exp d192v128_causal flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --size seq_q=200 \
  --size seq_k=250
exp d128_gqa3 flash_attention_fwd_gqa --set head_dim=128 --set group=3 --size heads=6 --size seq_q=77 \
  --size seq_k=390
exp d128_window flash_attention_fwd_sliding_window --set head_dim=128 --set window=100 --size seq_q=400 \
  --size seq_k=401
exp d128_alibi flash_attention_fwd_alibi --set head_dim=128 --size heads=4 --size seq_q=200 --size seq_k=370
exp d64_document flash_attention_fwd_document --size batch=2 --size seq_q=300 --size seq_k=421
exp d64_varlen_causal flash_attention_varlen_causal --size batch=4 --size seq_q=150 --size seq_k=290
ARCH=sm_80 exp sm80_causal flash_attention_fwd_causal --size heads=2 --size seq_q=150 --size seq_k=201
tar czf $carry/cases.tgz -C $(dirname $cases) d
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
