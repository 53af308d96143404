#!/usr/bin/env bash
# Compiles the decoding kernels (split KV, packed GQA; group 4 as
# peer_sdpa.py --decode's 32 query heads on 8 K/V heads) and the combine to
# PTX + metadata into bench-ptx-decode/ (or $1) for
#   tilec-bench --pass=decode --ptx-dir=bench-ptx-decode [--splits=auto,1,2,4]
# Names carry the schedule: m (packed rows per program), n (keys per step),
# s (ring slots), tma / cpasync (how the rings fill), mma (mma.sync); the
# paged kernels p (keys per page).
# SWEEP=1 adds the schedules the default was picked from.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx-decode}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
compile() { # file kernel [flags...]
  local file=$1 kernel=$2
  shift 2
  "$tilec" --kernel="$kernel" --arch="$arch" --emit=cubin -o "$out/$file.cubin" "$@" \
    2>&1 | grep -E "registers|spill|error" | sed "s/^/$file: /"
  rm -f "$out/$file.cubin"
}
for d in 128; do
  compile flash_attention_decode_combine_d$d flash_attention_decode_combine --set head_dim=$d --set group=4
  # The default schedule (defaultDecodeSchedule: 64x64 tiles, three
  # cp.async slots; _m64_n64_s3_cpasync in the sweep).
  compile flash_attention_decode_d${d}_default flash_attention_decode --set head_dim=$d --set group=4
  # The same on TMA rings (the paged kernels' pipeline), and from a paged
  # cache (tilec-bench reads the page size from _p{P}).
  compile flash_attention_decode_d${d}_m64_n64_s3_tma flash_attention_decode --set head_dim=$d \
    --set group=4 --lowering=tilegpu --tma
  for p in 16 64 256; do
    compile flash_attention_decode_paged_d${d}_p$p flash_attention_decode_paged --set head_dim=$d \
      --set group=4 --set page_size=$p
  done
  if [ "${SWEEP:-0}" = 1 ]; then
    f=flash_attention_decode
    g="--set head_dim=$d --set group=4"
    compile ${f}_d${d}_m64_n64_s2_tma $f $g --lowering=tilegpu --tma --pipeline-stages=2
    compile ${f}_d${d}_m64_n64_s3_tma $f $g --lowering=tilegpu --tma --pipeline-stages=3
    compile ${f}_d${d}_m64_n64_s4_tma $f $g --lowering=tilegpu --tma --pipeline-stages=4
    compile ${f}_d${d}_m64_n128_s2_tma $f $g --lowering=tilegpu --tma --set block_n=128 --pipeline-stages=2
    compile ${f}_d${d}_m64_n64_s2_cpasync $f $g --pipeline-stages=2
    compile ${f}_d${d}_m64_n64_s4_cpasync $f $g --pipeline-stages=4
    compile ${f}_d${d}_m64_n32_s4_cpasync $f $g --set block_n=32 --pipeline-stages=4
    compile ${f}_d${d}_m64_n32_s6_cpasync $f $g --set block_n=32 --pipeline-stages=6
    compile ${f}_d${d}_m64_n128_s2_cpasync $f $g --set block_n=128 --pipeline-stages=2
    compile ${f}_d${d}_m64_n64_s3_mma $f $g --wgmma=false
  fi
done
