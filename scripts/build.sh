#!/usr/bin/env bash
# Configures (once) and builds tilec in $TILEC_BUILD_DIR (default: build/).
# Uses clang 22 and lld when installed, ninja, and ccache with its cache
# outside the build tree, so fresh build directories reuse earlier work.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TILEC_BUILD_DIR:-$root/build}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}

if [[ ! -f $build/build.ninja ]]; then
  compilers=()
  if command -v clang++-22 >/dev/null; then
    compilers=(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22)
  fi
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir "${compilers[@]}" "$@"
fi
cmake --build "$build"
