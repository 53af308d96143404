#!/usr/bin/env bash
# Compiles dK/dV and dQ kernels with other schedules than the default into
# bench-ptx-bwd-sweep/ (or $1) for `bench/bwd_kernels.py --sweep-dir`:
# KERNEL-bf16-dD-bmM-bnN-wW-aisA[TAG].ptx, and prints ptxas' registers and
# spills. FLAGS (optional) go to every tilec command and TAG (optional) ends
# every name, e.g. FLAGS="--lowering=tilegpu --tma" TAG=-tma.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx-bwd-sweep}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # kernel d bm bn warps a-in-shared
  local name="$1-bf16-d$2-bm$3-bn$4-w$5-ais$6${TAG:-}"
  "$tilec" --kernel="$1" --arch="$arch" --set head_dim="$2" --set block_m="$3" \
    --set block_n="$4" --num-warps="$5" --a-in-shared="$([ "$6" = 1 ] && echo true || echo false)" \
    --emit=cubin -o "$out/$name.cubin" ${FLAGS:-} 2>&1 | grep -E "spill" | sed "s/^/$name: /"
}
for v in "" _causal; do
  for cfg in "64 64 4 1" "32 64 4 1" "64 128 8 1" "32 128 8 1" "64 64 4 0"; do
    compile flash_attention_bwd_dkdv$v 64 $cfg
  done
  for cfg in "32 64 4 1" "16 64 4 1" "64 128 8 1" "32 128 8 1" "16 128 8 1"; do
    compile flash_attention_bwd_dkdv$v 128 $cfg
  done
  for cfg in "64 64 4 1" "64 128 4 1" "128 64 8 1" "64 32 4 1" "64 64 4 0" "128 128 8 1"; do
    compile flash_attention_bwd_dq$v 64 $cfg
  done
  for cfg in "64 32 4 1" "64 64 4 1" "128 32 8 1" "128 64 8 1" "64 32 4 0" "128 128 8 1" "64 128 4 1"; do
    compile flash_attention_bwd_dq$v 128 $cfg
  done
done
rm -f "$out"/*.cubin
echo "compile-bwd-sweep: $(ls "$out"/*.ptx | wc -l) kernels in $out"
