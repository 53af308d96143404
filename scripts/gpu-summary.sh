#!/usr/bin/env bash
# The verdict of a scripts/gpu-check.sh run from its logs in DIR (its $OUT):
# each case set's count line, its first FAIL lines, and how many
# sanitizer runs exited 0 or not. gpu-check.sh prints it last and writes it
# to DIR/summary.txt, so a device call's script needs no summary of its own.
#   bash scripts/gpu-summary.sh DIR
set -uo pipefail
dir=${1:?usage: gpu-summary.sh DIR (the logs of scripts/gpu-check.sh)}
for f in "$dir"/gpu-cases*.log; do
  [ -f "$f" ] && echo "$(basename "$f"): $(tail -1 "$f")"
done
grep -h "^FAIL" "$dir"/gpu-cases*.log 2>/dev/null | head -20
if [ -f "$dir/memcheck.log" ]; then
  echo "sanitizer runs: $(grep -c '^exit 0' "$dir/memcheck.log") clean, $(grep -c '^exit [1-9]' "$dir/memcheck.log") not"
fi
