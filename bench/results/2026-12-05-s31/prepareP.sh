#!/usr/bin/env bash
# Session 31's call P: the causal forward as a persistent grid whose heads come
# in sections (tile-persistent-grid rounds-per-section, new: the programs
# running at once share a few heads' K and V in L2 instead of a round's worth)
# against one section of all heads (0: the order before) and against the
# default (one program a tile). d = 128 and 112, N = 1k to 16k. Each
# rounds-per-section value is a build (the pass's default), restored after.
set -euo pipefail
rm -rf carry-P && mkdir -p carry-P
cp ../shared/tools/peer_sdpa.py carry-P/
pass=lib/Transforms/PersistentGrid.cpp td=dialects/Tile/Passes.td
DIMS="112 128" VARIANTS="causal" bash bench/compile-variants.sh carry-P/def > /dev/null
cp $td /tmp/Passes.td.keep
for r in 0 1 2 4; do
  sed -i "s|Option<\"roundsPerSection\", \"rounds-per-section\", \"unsigned\", /\*default=\*/\"[0-9]*\"|Option<\"roundsPerSection\", \"rounds-per-section\", \"unsigned\", /*default=*/\"$r\"|" $td
  grep -q "default=\*/\"$r\"" $td
  bash scripts/build.sh > /dev/null
  DIMS="112 128" VARIANTS="causal" SETS=--persistent bash bench/compile-variants.sh carry-P/p$r > /dev/null
done
cp /tmp/Passes.td.keep $td && bash scripts/build.sh > /dev/null
echo "carry-P: $(du -sm carry-P | cut -f1) MiB"
