#!/usr/bin/env bash
# Runs on the GPU machine: times every attention kernel of a PTX directory
# with tilec-bench, one process per kernel under a time limit (a kernel
# that hangs costs its own rows, not the rest), and merges the rows into
# one JSON file for bench/table.py.
#   bash bench/run.sh PTX_DIR SEQLENS OUT.json [SECONDS_PER_KERNEL]
set -uo pipefail
dir=$1 seqlens=$2 out=$3 limit=${4:-60}
bench=${TILEC_BENCH:-build-gpu/bin/tilec-bench}
parts=${PARTS:-$(mktemp -d)} # PARTS=DIR keeps the per-kernel files
mkdir -p "$parts"
for ptx in "$dir"/flash_attention*.ptx; do
  name=$(basename "$ptx" .ptx)
  timeout "$limit" "$bench" --ptx-dir="$dir" --seqlens="$seqlens" --filter="$name.ptx" \
    --json="$parts/$name.json" >"$parts/$name.txt" 2>&1
  rc=$?
  grep -v "^#" "$parts/$name.txt" | grep -v "^kernel" || true
  [ "$rc" -eq 0 ] || echo "bench: $name exited $rc$([ "$rc" -eq 124 ] && echo " (over ${limit} s)")"
done
python3 - "$out" "$parts" <<'PY'
import glob, json, sys
out, parts = sys.argv[1], sys.argv[2]
merged = {"rows": []}
for path in sorted(glob.glob(parts + "/*.json")):
    data = json.load(open(path))
    merged.update({k: v for k, v in data.items() if k != "rows"})
    merged["rows"] += data["rows"]
json.dump(merged, open(out, "w"), indent=1)
print(f"bench: {len(merged['rows'])} rows in {out}")
PY
