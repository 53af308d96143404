#!/usr/bin/env bash
# Session 31's call P2: call P again with each section's rounds counted from
# the section's start (so that its long and short tiles pair up in the
# programs, as over the whole grid): rounds-per-section 2 and 4 (q2, q4)
# beside the default (one program a tile) and one section (p0), d = 128
# causal. Each value is a build (the pass's default), restored after.
set -euo pipefail
rm -rf carry-P2 && mkdir -p carry-P2
cp ../shared/tools/peer_sdpa.py carry-P2/
td=dialects/Tile/Passes.td
DIMS=128 VARIANTS="causal" bash bench/compile-variants.sh carry-P2/def > /dev/null
DIMS=128 VARIANTS="causal" SETS=--persistent bash bench/compile-variants.sh carry-P2/p0 > /dev/null
cp $td /tmp/Passes.td.keep
for r in 2 4; do
  sed -i "s|Option<\"roundsPerSection\", \"rounds-per-section\", \"unsigned\", /\*default=\*/\"[0-9]*\"|Option<\"roundsPerSection\", \"rounds-per-section\", \"unsigned\", /*default=*/\"$r\"|" $td
  grep -q "default=\*/\"$r\"" $td
  bash scripts/build.sh > /dev/null
  DIMS=128 VARIANTS="causal" SETS=--persistent bash bench/compile-variants.sh carry-P2/q$r > /dev/null
done
cp /tmp/Passes.td.keep $td && bash scripts/build.sh > /dev/null
echo "carry-P2: $(du -sm carry-P2 | cut -f1) MiB"
