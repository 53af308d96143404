#!/usr/bin/env bash
# Compiles the benchmark kernels to PTX + metadata into bench-ptx/ (or $1),
# reporting ptxas registers and spills, for bench/bench_tilec.py on the GPU.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx}
# sm_90a: the H200's own target, so ptxas here allocates registers as the
# driver's JIT does there (sm_80 PTX JIT-compiled for sm_90 can spill where
# sm_80 SASS does not).
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # file kernel warps [--set ...]
  local file=$1 kernel=$2 warps=$3
  shift 3
  "$tilec" --kernel="$kernel" --arch="$arch" --num-warps="$warps" --emit=cubin -o "$out/$file.cubin" "$@" \
    2>&1 | grep -E "registers|spill" | sed "s/^/$file: /"
}
# The benchmark shapes are contiguous and 16-byte aligned: --assume-aligned
# (the runtime checks it at launch).
compile matmul_64x64x32_w4 matmul 4 --assume-aligned --set block_m=64 --set block_n=64 --set block_k=32
compile matmul_128x64x32_w4 matmul 4 --assume-aligned --set block_m=128 --set block_n=64 --set block_k=32
# Attention with each kernel's default schedule (tiles, warps, Q placement;
# examples/attention/FlashAttention.cpp defaultSchedule), named after it:
# on sm_90a the dots run as wgmma and d = 128 uses 128x64 tiles in two
# row groups (g2).
for f in flash_attention_fwd flash_attention_fwd_causal; do
  if [ "$arch" = sm_90a ]; then
    # d = 64 before session 8 (4 warps, cp.async rings); its default now is
    # the _w8_g1_tma kernel below.
    compile ${f}_d64_m128_n64_w4 $f 4 --set head_dim=64 --lowering=tile-to-llvm
    compile ${f}_d128_m128_n64_w4_qs_s2_g2 $f 4 --set head_dim=128
    # K/V rings filled by TMA (--tma), 4 warps.
    compile ${f}_d128_m128_n64_w4_s2_g2_tma $f 4 --set head_dim=128 --lowering=tilegpu --tma
    # Two warpgroups on 128 rows (one row group), TMA rings filled by the
    # consumers (_tma); by a producer warpgroup (--warp-specialize) with
    # 256x64 tiles in two row groups (_ws); and with the consumer
    # warpgroups taking turns issuing their dots (--ping-pong, _pp), also
    # with 128x128 tiles.
    for d in 64 128; do
      compile ${f}_d${d}_m128_n64_w8_g1_tma $f 8 --set head_dim=$d --set row_groups=1 --lowering=tilegpu --tma
      compile ${f}_d${d}_m256_n64_w8_g2_ws $f 8 --set head_dim=$d --set row_groups=2 --set block_m=256 --lowering=tilegpu --tma --warp-specialize
      compile ${f}_d${d}_m256_n64_w8_g2_pp $f 8 --set head_dim=$d --set row_groups=2 --set block_m=256 --lowering=tilegpu --tma --warp-specialize --ping-pong
      compile ${f}_d${d}_m128_n128_w8_g1_pp $f 8 --set head_dim=$d --set row_groups=1 --set block_n=128 --lowering=tilegpu --tma --warp-specialize --ping-pong
      # ... with each step's Q·Kᵀ issued beside the previous block's P·V
      # (--set overlap=on, _ov).
      compile ${f}_d${d}_m128_n128_w8_g1_pp_ov $f 8 --set head_dim=$d --set row_groups=1 --set block_n=128 --lowering=tilegpu --tma --warp-specialize --ping-pong --set overlap=on
    done
    compile ${f}_d64_m128_n64_w8_g1_tma_ov $f 8 --set head_dim=64 --set row_groups=1 --lowering=tilegpu --tma --set overlap=on
    compile ${f}_d128_m128_n64_w8_g1_qs_pp_ov $f 8 --set head_dim=128 --set row_groups=1 --set block_m=128 --set block_n=64 --a-in-shared --lowering=tilegpu --tma --warp-specialize --ping-pong --set overlap=on
    # d = 256: its default (128x64 tiles on two consumer warpgroups, Q in
    # shared memory, TMA by a producer warpgroup, ping-pong); without
    # ping-pong; TMA by the consumers; the default before session 8 (64x16
    # tiles, 4 warps, tile-to-llvm).
    compile ${f}_d256_m128_n64_w8_g1_qs_pp $f 8 --set head_dim=256
    d256="--set head_dim=256 --set row_groups=1 --set block_m=128 --set block_n=64 --a-in-shared --lowering=tilegpu --tma"
    compile ${f}_d256_m128_n64_w8_g1_qs_ws $f 8 $d256 --warp-specialize --ping-pong=false
    compile ${f}_d256_m128_n64_w8_g1_qs_tma $f 8 $d256 --warp-specialize=false --ping-pong=false
    compile ${f}_d256_m64_n16_w4 $f 4 --set head_dim=256 --set block_m=64 --set block_n=16 --a-in-shared=false --lowering=tile-to-llvm
    compile ${f}_d256_m128_n32_w8_g1_qs_pp $f 8 --set head_dim=256 --set block_n=32
    compile ${f}_d256_m128_n32_w8_g1_qs_pp_ov $f 8 --set head_dim=256 --set block_n=32 --set overlap=on
  else
    compile ${f}_d64_m128_n64_w4 $f 4 --set head_dim=64
    compile ${f}_d128_m128_n32_w4_qs_s3 $f 4 --set head_dim=128
  fi
done
# A sweep (SWEEP=1) of tiles, warps, ring slots, Q in shared memory (qs) and
# programs per SM (occN); the defaults above are picked from it.
if [ "${SWEEP:-0}" = 1 ]; then
  sweep() { # tag kernel warps head_dim [flags...]
    local tag=$1 kernel=$2 warps=$3 d=$4
    shift 4
    compile ${kernel}_d${d}_${tag} $kernel $warps --set head_dim=$d "$@"
  }
  for f in flash_attention_fwd flash_attention_fwd_causal; do
    # mma.sync (--wgmma=false) with its own defaults, and the op-by-op path
    # with cp.async rings (--lowering=tilegpu without --tma).
    sweep m128_n64_w4_mma $f 4 64 --wgmma=false
    sweep m128_n32_w4_qs_s3_mma $f 4 128 --wgmma=false
    sweep m128_n64_w4_tilegpu $f 4 64 --lowering=tilegpu
    sweep m128_n64_w4_s2_g2_tilegpu $f 4 128 --lowering=tilegpu
    sweep m128_n64_w4_tma $f 4 64 --lowering=tilegpu --tma
    sweep m128_n128_w8_g1_ws $f 8 64 --set row_groups=1 --set block_n=128 --lowering=tilegpu --tma --warp-specialize
    sweep m128_n128_w8_g1_ws $f 8 128 --set row_groups=1 --set block_n=128 --lowering=tilegpu --tma --warp-specialize
  done
  f=flash_attention_fwd
  sweep m128_n32_w4_qs $f 4 64 --a-in-shared
  sweep m128_n32_w4_qs_occ3 $f 4 64 --a-in-shared --min-blocks-per-sm=3
  sweep m128_n64_w4 $f 4 64 --set block_n=64
  sweep m128_n64_w4_qs $f 4 64 --a-in-shared --set block_n=64
  sweep m128_n32_w4_s3 $f 4 64 --pipeline-stages=3
  sweep m64_n32_w4_qs_occ4 $f 4 64 --a-in-shared --set block_m=64 --min-blocks-per-sm=4
  sweep m128_n32_w8_qs $f 8 128 --a-in-shared
  sweep m128_n32_w8_qs_occ2 $f 8 128 --a-in-shared --min-blocks-per-sm=2
  sweep m128_n32_w4_qs $f 4 128 --a-in-shared
  sweep m128_n64_w8 $f 8 128 --set block_n=64
  sweep m128_n64_w8_qs $f 8 128 --a-in-shared --set block_n=64
  sweep m64_n32_w4_qs_occ3 $f 4 128 --a-in-shared --set block_m=64 --min-blocks-per-sm=3
  sweep m64_n32_w4_qs_occ4 $f 4 128 --a-in-shared --set block_m=64 --min-blocks-per-sm=4
  sweep m128_n32_w8_qs_occ2 ${f}_causal 8 128 --a-in-shared --min-blocks-per-sm=2
  sweep m128_n32_w4_qs_occ3 ${f}_causal 4 64 --a-in-shared --min-blocks-per-sm=3
fi
