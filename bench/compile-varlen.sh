#!/usr/bin/env bash
# Compiles the packed-batch (varlen) kernels and the dense kernels they are
# measured against, each with its default schedule, to PTX + metadata into
# bench-ptx-varlen/ (or $1) for
#   tilec-bench --pass=varlen --ptx-dir=bench-ptx-varlen
# (flash_attention_varlen<rest> next to flash_attention_fwd<rest>).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tilec=${TILEC:-$root/build/bin/tilec}
out=${1:-$root/bench-ptx-varlen}
arch=${ARCH:-sm_90a}
mkdir -p "$out"
for d in ${DIMS:-64 128 256}; do
  for v in "" _causal; do
    for kind in varlen fwd; do
      name=flash_attention_$kind${v}_d$d
      "$tilec" --kernel=flash_attention_$kind$v --set head_dim=$d --arch="$arch" --emit=cubin \
        -o "$out/$name.cubin" 2>&1 | grep -E "registers|spill|error|warning" | sed "s/^/$name: /"
      rm -f "$out/$name.cubin"
    done
  done
done
