#!/usr/bin/env bash
# Where ptxas puts the P·V wait of an overlapped attention step (no GPU
# needed): overlap_step.py writes one consumer step as PTX — S = Q·Kᵀ
# (QS m64n64k16 wgmmas), O += P·V (PS m64n<PN>k16), wait 1, row max, exp2,
# wait 0, O rescale, P = cvt — and sass_sequence.py prints the loop's order of
# HGMMA / DEPBAR / MUFU. "base" issues P·V beside Q·Kᵀ (HEAD's default);
# "pvlate" issues P·V after Q·Kᵀ's wait (--wait-before-next-dot).
# Session 33's output: base puts both DEPBARs before every MUFU.EX2 (also
# with no O rescale and no P written after the wait), pvlate keeps the MUFUs
# between P·V's issue and its DEPBAR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
tmp=$(mktemp -d)
for mode in base pvlate; do
  python3 "$here/overlap_step.py" 12 4 128 $mode > "$tmp/step.ptx"
  SASS_OUT=$tmp bash "$root/scripts/sass.sh" "$tmp/step.ptx" > /dev/null
  echo "$mode: $(python3 "$here/sass_sequence.py" "$tmp/step.sass")"
done
rm -rf "$tmp"
