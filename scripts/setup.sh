#!/usr/bin/env bash
# Installs what tilec needs to build on Debian 12 (bookworm), when missing:
# LLVM/MLIR 22 (from bookworm-security), clang/lld 22, ninja, ccache, fmt,
# GoogleTest. Safe to run again: installs nothing when all is present.
set -euo pipefail

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools lld-22 clang-22
          ninja-build ccache libfmt-dev libgtest-dev python3 cmake)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q "${missing[@]}"
else
  echo "setup: all packages present"
fi
