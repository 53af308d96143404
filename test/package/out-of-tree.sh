#!/usr/bin/env bash
# The installed package, used as a user would: installs the build tree into
# a scratch prefix, builds examples/out-of-tree (find_package(tilec),
# tilec_add_generator) there, and runs its variant's kernels on the CPU
# interpreter against the reference.
#   test/package/out-of-tree.sh BUILD_DIR WORK_DIR [CXX_COMPILER]
set -euo pipefail
build=${1:?usage: out-of-tree.sh BUILD_DIR WORK_DIR [CXX_COMPILER]}
work=${2:?usage: out-of-tree.sh BUILD_DIR WORK_DIR [CXX_COMPILER]}
cxx=${3:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
args=(-G Ninja -S "$root/examples/out-of-tree" -B "$work/build" -DCMAKE_BUILD_TYPE=Release
      -Dtilec_DIR="$work/prefix/lib/cmake/tilec")
[ -n "$cxx" ] && args+=(-DCMAKE_CXX_COMPILER="$cxx")
command -v ccache >/dev/null && args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake "${args[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; exit 1; }
cmake --build "$work/build" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
gen=$work/build/tilec-prefix-lm
"$gen" --list-kernels | grep -E "^flash_attention_(fwd|bwd_dq|varlen|decode)_prefix_lm "
"$gen" --kernel=flash_attention_fwd_prefix_lm --run=cpu --size seq_q=150 --size seq_k=170 --set prefix=70
"$gen" --kernel=flash_attention_bwd_dkdv_prefix_lm --run=cpu --size seq_q=90 --size seq_k=90
"$gen" --kernel=flash_attention_varlen_prefix_lm --run=cpu --set block_m=32 --set block_n=16
"$gen" --kernel=flash_attention_fwd_prefix_lm --emit=ptx -o "$work/prefix_lm.ptx"
grep -q "flash_attention_fwd_prefix_lm" "$work/prefix_lm.ptx"
echo "out-of-tree: find_package(tilec) and tilec_add_generator built and ran tilec-prefix-lm"
