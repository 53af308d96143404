#!/usr/bin/env bash
# Session 52. Makes carry-H/ for runH.sh: the d = 128 backward's linear
# kernels (prep: delta = rowsum(dO ∘ O); dq_convert: dq = dq_acc · scale,
# dq_acc = 0) at other tile sizes, the rest of the set as it is. Call F's
# ncu had prep at 43 µs and 65 % of the H200's DRAM bandwidth at N = 1k
# (104 registers a thread: two programs of 256 threads an SM); with the
# convert (about 0.1 ms there, session 41) they are a quarter of the causal
# 1k row. Sets: def; l32 (both 32 rows a program: 48 and 30 registers);
# w4 (both 32 rows on 4 warps); p32 (prep alone at 32 rows); pal (prep at
# 64 rows compiled --assume-aligned: 48 registers, no scalar fallback; the
# benchmark's lse rows are 16-byte multiples, so its launch check passes —
# whether a per-tensor alignment declaration, O and dO aligned and lse
# not, is worth building).
set -euo pipefail
carry=carry-H
tilec=build/bin/tilec
rm -rf $carry && mkdir -p $carry
DIMS=128 bash bench/compile-bwd.sh $carry/def > /dev/null
linear() { # SET FLAGS...: prep and convert with FLAGS into carry-H/SET
  local set=$1
  shift
  cp -r $carry/def $carry/$set
  for k in flash_attention_bwd_prep flash_attention_bwd_dq_convert; do
    $tilec --kernel=$k --arch=sm_90a --set head_dim=128 "$@" --emit=ptx -o $carry/$set/${k}_d128.ptx
  done
}
linear l32 --set block_m=32
linear w4 --set block_m=32 --num-warps=4
linear p32 --set block_m=32
$tilec --kernel=flash_attention_bwd_dq_convert --arch=sm_90a --set head_dim=128 \
  --emit=ptx -o $carry/p32/flash_attention_bwd_dq_convert_d128.ptx
cp -r $carry/def $carry/pal
$tilec --kernel=flash_attention_bwd_prep --arch=sm_90a --set head_dim=128 --assume-aligned \
  --emit=ptx -o $carry/pal/flash_attention_bwd_prep_d128.ptx
cp ../shared/tools/peer_sdpa.py $carry/
du -sh $carry
