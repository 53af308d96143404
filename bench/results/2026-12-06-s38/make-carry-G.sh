#!/usr/bin/env bash
# Makes carry-G/ for runG.sh (run from the repository root after
# scripts/build.sh): sm_90a forward cases in the final defaults of session
# 38 that no set of calls A-C held — the peeled first block under a
# sliding window (its first block partly outside it; d = 80, 112, 128),
# prefix-LM and GQA 4 at d = 128, queries past the keys (causal d = 112
# persistent, d = 128), one key, d = 96 with a ragged last block.
set -euo pipefail
rm -rf carry-G && mkdir -p carry-G/g
T=build/bin/tilec A=--arch=sm_90a G=carry-G/g
$T --kernel=flash_attention_fwd_sliding_window $A --set head_dim=128 --set window=100 --export-case=$G/sm90a_d128_window100 --size batch=2 --size seq_q=300 --size seq_k=333
$T --kernel=flash_attention_fwd_sliding_window $A --set head_dim=128 --set window=5 --export-case=$G/sm90a_d128_window5 --size seq_q=200 --size seq_k=190
$T --kernel=flash_attention_fwd_sliding_window $A --set head_dim=112 --set window=300 --set dtype=f16 --export-case=$G/sm90a_d112_window300_f16 --size heads=3 --size seq_q=530 --size seq_k=500
$T --kernel=flash_attention_fwd_sliding_window $A --set head_dim=80 --set window=64 --export-case=$G/sm90a_d80_window64 --size seq_q=260 --size seq_k=300
$T --kernel=flash_attention_fwd_prefix_lm $A --set head_dim=128 --set prefix=70 --export-case=$G/sm90a_d128_prefix70 --size batch=2 --size seq_q=300 --size seq_k=333
$T --kernel=flash_attention_fwd_gqa $A --set head_dim=128 --set group=4 --export-case=$G/sm90a_d128_gqa4 --size heads=8 --size seq_q=129 --size seq_k=257
$T --kernel=flash_attention_fwd_causal $A --set head_dim=128 --export-case=$G/sm90a_d128_causal_q_gt_k --size seq_q=400 --size seq_k=130
$T --kernel=flash_attention_fwd_causal $A --set head_dim=112 --export-case=$G/sm90a_d112_causal_q_gt_k_bh --size batch=3 --size heads=5 --size seq_q=400 --size seq_k=130
$T --kernel=flash_attention_fwd $A --set head_dim=128 --set dtype=f16 --export-case=$G/sm90a_d128_one_key --size seq_q=200 --size seq_k=1
$T --kernel=flash_attention_fwd $A --set head_dim=96 --export-case=$G/sm90a_d96_k129 --size seq_q=77 --size seq_k=129
du -sh carry-G
