#!/usr/bin/env bash
# Session 28 prepared these device calls (no device was lent in session 28).
# Run on the CPU machine from the repository root, after a build:
#   bash bench/results/2026-12-05-s28/prepare.sh A   # then runA.sh through the device tool
#   bash bench/results/2026-12-05-s28/prepare.sh B   # then runB.sh
#   bash bench/results/2026-12-05-s28/prepare.sh C   # then runC.sh
#   bash bench/results/2026-12-05-s28/prepare.sh D   # then runD.sh
# What sessions 27-28 changed without a GPU: shared offsets as XOR constants (c92223c),
# the closed-form backward bounds (e75a2ca), the fused d = 128 backward (306e1c3), the
# stmatrix epilogue (b652ca9) and column blocks only for dots written out (abf71b6).
# A: the sm_90a standard cases, the sm_90a fused backward cases (+ dQ convert, prep);
#    then the backward timed (two kernels and fused, d = 64/128) beside
#    peer_sdpa.py --pass bwd.
# B: the sm_90a dK/dV and dQ cases, the Python package's GPU tests (the fused backward
#    from torch, backward="auto"), then the forward (d = 64/128/256) beside peer_sdpa.py.
# C: every variant (issue 14's examples included: windowed soft-capping, the bias table)
#    beside FlexAttention with the same definitions (peer_flex.py, bench/flex_extra.py),
#    d = 128, N = 8k and 16k.
# D: head dims 80 and 112 (issue 17: never measured), padded to 128 and split into
#    column tiles (64 + 16, 64 + 32 + 16), beside cuDNN: which the default should take.
# carry/ is ignored by git; a device call carries it with the tree (<= 64 MiB).
set -euo pipefail
call=${1:?usage: prepare.sh A|B|C|D}
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf carry && mkdir -p carry
cp ../shared/tools/peer_sdpa.py carry/
if [ "$call" = D ]; then
  VARIANTS="dense causal" DIMS="80 112" bash bench/compile-variants.sh carry/v-pad > /dev/null
  VARIANTS="dense causal" DIMS="80 112" SETS="--set split_columns=on" \
    bash bench/compile-variants.sh carry/v-split > /dev/null
  echo "carry: $(du -sm carry | cut -f1) MiB"
  exit 0
fi
if [ "$call" = C ]; then
  cp ../shared/tools/peer_flex.py carry/
  DIMS=128 bash bench/compile-variants.sh carry/v-all > /dev/null
  echo "carry: $(du -sm carry | cut -f1) MiB"
  exit 0
fi
BWD=1 bash scripts/gpu-cases.sh "$tmp/gpu-cases-bwd" > /dev/null
find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 ! -name 'sm90a_bwd_*' -exec rm -rf {} +
# (the heavier variants' backward did not change: they stay home)
find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 \( -name 'sm90a_bwd_*_alibi_*' -o \
  -name 'sm90a_bwd_*_softcap_*' -o -name 'sm90a_bwd_*_sliding_window_*' \) -exec rm -rf {} +
if [ "$call" = A ]; then
  find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 \( -name 'sm90a_bwd_dkdv*' -o \
    -name 'sm90a_bwd_dq_*' \) ! -name 'sm90a_bwd_dq_convert*' -exec rm -rf {} +
  ARCHS=sm_90a bash scripts/gpu-cases.sh "$tmp/gpu-cases" > /dev/null 2>&1
  find "$tmp/gpu-cases" -mindepth 1 -maxdepth 1 ! -name 'sm90a_*' ! -name tilegpu -exec rm -rf {} +
  tar czf carry/cases.tgz -C "$tmp" gpu-cases gpu-cases-bwd
  bash bench/compile-bwd.sh carry/b-new
else
  find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 ! -name 'sm90a_bwd_dkdv*' \
    ! -name 'sm90a_bwd_dq_*' -exec rm -rf {} +
  find "$tmp/gpu-cases-bwd" -mindepth 1 -maxdepth 1 -name 'sm90a_bwd_dq_convert*' -exec rm -rf {} +
  tar czf carry/cases.tgz -C "$tmp" gpu-cases-bwd
  DTYPES="bf16 f16" DIMS="64 128" bash scripts/compile-torch-kernels.sh carry/torch-ptx > /dev/null
  DIMS="64 128 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry/v-new > /dev/null
fi
echo "carry: $(du -sm carry | cut -f1) MiB (the tree adds ~8; a call carries at most 64)"
