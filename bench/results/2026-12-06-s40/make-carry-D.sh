#!/usr/bin/env bash
# Makes carry-D/ for runD.sh: with the position compare of convert-tilegpu-
# to-nvvm in its first form (also where a thread holds few positions), and
# causal / prefix-LM d = 64 on the 128-row [queries, keys] step, a ragged
# GPU case of each kernel whose PTX it changes (changed-D.txt), f16 and
# GQA 3 and tiny ones beside; the backward sets at d = 64 and 128 (pc),
# timed against carry-C's (the session's landed defaults, base).
set -euo pipefail
here=bench/results/2026-12-06-s40
rm -rf carry-D /tmp/s40d && mkdir -p carry-D /tmp/s40d/c
exp() { # name kernel args...
  local name=$1 kernel=$2
  shift 2
  build/bin/tilec --kernel="$kernel" --arch=sm_90a "$@" --export-case=/tmp/s40d/c/$name > /dev/null
}
while read -r file; do
  base=${file%.ptx}
  d=${base##*_d}
  kernel=${base%_d*}
  exp "sm90a_${kernel#flash_attention_}_d${d}_ragged" "$kernel" --set head_dim="$d" \
    --size seq_q=200 --size seq_k=230
done < $here/changed-D.txt
for d in 64 128; do
  exp sm90a_bwd_fused_causal_d${d}_f16 flash_attention_bwd_fused_causal --set head_dim=$d \
    --set dtype=f16 --size seq_q=256 --size seq_k=200
  exp sm90a_bwd_fused_gqa3_d$d flash_attention_bwd_fused_gqa --set head_dim=$d --set group=3 \
    --size heads=6 --size seq_q=77 --size seq_k=130
  exp sm90a_bwd_fused_prefix_lm_d${d}_p40 flash_attention_bwd_fused_prefix_lm --set head_dim=$d \
    --set prefix=40 --size seq_q=150 --size seq_k=130
  exp sm90a_bwd_fused_causal_d${d}_tiny flash_attention_bwd_fused_causal --set head_dim=$d \
    --size seq_q=5 --size seq_k=7
done
tar czf carry-D/cases.tgz -C /tmp/s40d c
bash bench/compile-bwd.sh carry-D/b-pc
cp -r carry-C/b-tilec carry-D/b-base
du -sh carry-D
