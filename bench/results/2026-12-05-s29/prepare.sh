#!/usr/bin/env bash
# Session 29's device calls. Run on the CPU machine from the repository root,
# after a build:
#   bash bench/results/2026-12-05-s29/prepare.sh A   # then runA.sh through the device tool
#   bash bench/results/2026-12-05-s29/prepare.sh C   # then runC.sh
#   bash bench/results/2026-12-05-s29/prepare.sh B   # then runB.sh
#   bash bench/results/2026-12-05-s29/prepare.sh E   # then runE.sh (the failing case)
# Sessions 27-29 changed sm_90a code without a GPU: shared offsets as XOR
# constants (c92223c), closed-form backward bounds (e75a2ca), the fused
# d = 128 backward (306e1c3), the stmatrix epilogue (b652ca9), column blocks
# only for dots written out (abf71b6), the backward's FFMA/scale (8f848d0),
# no -inf guard on dot scores (c5dd096), and (session 29) roles that end in
# `exit` with a warp-uniform first-warp test (every warp-specialized kernel;
# the persistent forward's loop 578 -> 471 instructions at d = 128).
# A: correctness: the sm_90a standard cases and the sm_90a persistent
#    forwards at d = 128 and 256 (on 2 programs too); sanitizers on their lists.
# C: the backward: the sm_90a cases that fit a call: the fused kernel (all
#    but the score modifiers' and two d = 64 multi-block cases), dQ convert,
#    prep, dK/dV and dQ dense, causal and GQA 3 ragged; then its speed (two
#    kernels and fused, d = 64/128) beside peer_sdpa.py --pass bwd.
# B: the forward's speed: the default beside --persistent and beside the
#    last V block from the producer (lastv.patch; d = 128 and 256, dense and
#    causal, 1k/4k/16k) and cuDNN.
# carry/ is ignored by git; a device call carries it with the tree (<= 64 MiB).
set -euo pipefail
call=${1:?usage: prepare.sh A|B|C|E}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf carry && mkdir -p carry
cp ../shared/tools/peer_sdpa.py carry/
if [ "$call" = E ]; then
  case=sm90a_row_groups2_fwd_d128
  args=(--kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set row_groups=2
        --set block_n=64 --size batch=2 --size seq_q=200 --size seq_k=333)
  build/bin/tilec "${args[@]}" --export-case="$tmp/cur" > /dev/null
  mkdir -p carry/cases
  cp -r "$tmp/cur" carry/cases/${case}_cur
  cp -r "$tmp/cur" carry/cases/${case}_notma
  build/bin/tilec "${args[@]:0:8}" --tma=false --emit=ptx -o carry/cases/${case}_notma/kernel.ptx
  git apply bench/results/2026-12-05-s29/nomatrix.patch
  bash scripts/build.sh > /dev/null
  cp -r "$tmp/cur" carry/cases/${case}_nomatrix
  build/bin/tilec "${args[@]:0:8}" --emit=ptx -o carry/cases/${case}_nomatrix/kernel.ptx
  git apply -R bench/results/2026-12-05-s29/nomatrix.patch
  bash scripts/build.sh > /dev/null
elif [ "$call" = A ]; then
  ARCHS=sm_90a bash scripts/gpu-cases.sh "$tmp/gpu-cases" > /dev/null 2>&1
  find "$tmp/gpu-cases" -mindepth 1 -maxdepth 1 ! -name 'sm90a_*' ! -name tilegpu -exec rm -rf {} +
  PERSISTENT=1 bash scripts/gpu-cases.sh "$tmp/gpu-cases-persistent" > /dev/null
  find "$tmp/gpu-cases-persistent" -mindepth 1 -maxdepth 1 ! -name 'sm90a_d128*' \
    ! -name 'sm90a_d256*' -exec rm -rf {} +
  tar czf carry/cases.tgz -C "$tmp" gpu-cases gpu-cases-persistent
elif [ "$call" = C ]; then
  BWD=1 bash scripts/gpu-cases.sh "$tmp/gpu-cases-bwd" > /dev/null
  (cd "$tmp/gpu-cases-bwd" && ls -d sm90a_bwd_fused* sm90a_bwd_dq_convert* sm90a_bwd_prep* \
    sm90a_bwd_dkdv_d128_ragged sm90a_bwd_dkdv_causal_d128_ragged sm90a_bwd_dq_ragged \
    sm90a_bwd_dq_causal_ragged sm90a_bwd_dkdv_gqa3_d128_ragged sm90a_bwd_dq_gqa3 |
    grep -v -e softcap -e alibi -e sliding -e gqa_d64_multi -e prefix_lm_d64_multi) > "$tmp/keep"
  find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 -exec basename {} \; | grep -vxF -f "$tmp/keep" |
    (cd "$tmp/gpu-cases-bwd" && xargs rm -rf)
  tar czf carry/cases.tgz -C "$tmp" gpu-cases-bwd
  bash bench/compile-bwd.sh carry/b-new > /dev/null
else
  DIMS="128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry/v-def > /dev/null
  DIMS="128 256" VARIANTS="dense causal" SETS=--persistent \
    bash bench/compile-variants.sh carry/v-pers > /dev/null
  # The last V block from the producer in the kernels that are not
  # persistent too (lastv.patch lifts session 23's exclusion, which the
  # roles' `exit` may have made moot: d = 128 loop 471 -> 475 instructions,
  # d = 256 402 -> 394, 56-72 fewer outside the loops).
  if [ ! -d /tmp/v-lastv ]; then
    git apply bench/results/2026-12-05-s29/lastv.patch
    bash scripts/build.sh > /dev/null
    DIMS="128 256" VARIANTS="dense causal" bash bench/compile-variants.sh /tmp/v-lastv > /dev/null
    git apply -R bench/results/2026-12-05-s29/lastv.patch
    bash scripts/build.sh > /dev/null
  fi
  cp -r /tmp/v-lastv carry/v-lastv
fi
echo "carry: $(du -sm carry | cut -f1) MiB (the tree adds ~8; a call carries at most 64)"
