#!/usr/bin/env bash
# Runs on the GPU machine: tilec's decoding kernels (bench-ptx-decode/, from
# bench/compile-decode.sh) and the peers (peer_sdpa.py --decode) in one go,
# at B = 64, 8 and 1 (32 query heads on 8 K/V heads, d = 128), and with 4
# query tokens per sequence; JSON and text into $1 (default out/).
#   bash bench/run-decode.sh OUT_DIR [SEQLENS]
set -uo pipefail
out=${1:-out} seqlens=${2:-2048,8192,32768}
bench=${TILEC_BENCH:-build-gpu/bin/tilec-bench}
dir=${PTX_DIR:-bench-ptx-decode}
peer=${PEER:-$dir/peer_sdpa.py}
mkdir -p "$out"
run() { # tag [tilec-bench flags...]
  local tag=$1
  shift
  timeout 240 "$bench" --pass=decode --ptx-dir="$dir" --seqlens="$seqlens" \
    --json="$out/tilec-decode-$tag.json" "$@" >"$out/tilec-decode-$tag.txt" 2>&1
  echo "tilec-bench $tag: exit $?"
  grep -v "^#" "$out/tilec-decode-$tag.txt"
}
run b64 --splits=auto,2,4 --batch=64
run b8 --splits=auto,1,2,4,8 --batch=8 --filter=default
run b1 --splits=auto,8,16,32 --batch=1 --filter=default
run b64q4 --splits=auto,2 --batch=64 --queries=4 --filter=default
for b in 64 8 1; do
  timeout 200 python3 "$peer" --decode --decode-batch "$b" --seqlens "$seqlens" \
    --json "$out/peers-decode-b$b.json" 2>&1 | grep -v -i "warn\|fn = lambda"
done
