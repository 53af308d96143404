#!/usr/bin/env bash
# Session 30's call V: the variants session 29 left untimed or short next to
# FlexAttention (peer_flex.py, flex_extra.py) in one call: ALiBi with
# tile-hoist-row-terms (new) and without (old, nohoist.patch) at d = 64 and
# 128 (and as a persistent grid, v-pers), the sliding window (its masked
# steps merged since session 29), sliding window + soft-capping and the relative-bias table at d = 128;
# N = 8k and 16k. Run from the repository root after a build; then runV.sh.
set -euo pipefail
here=bench/results/2026-12-05-s30
rm -rf carry-V && mkdir -p carry-V
cp ../shared/tools/peer_flex.py carry-V/
DIMS="64 128" VARIANTS="alibi" bash bench/compile-variants.sh carry-V/v-new > /dev/null
DIMS=128 VARIANTS="sliding_window sliding_window_softcap relative_bias_table" \
  bash bench/compile-variants.sh carry-V/v-new > /dev/null
DIMS="64 128" VARIANTS="alibi" SETS=--persistent bash bench/compile-variants.sh carry-V/v-pers > /dev/null
DIMS=128 VARIANTS="sliding_window" SETS=--persistent bash bench/compile-variants.sh carry-V/v-pers > /dev/null
git apply $here/nohoist.patch && bash scripts/build.sh > /dev/null
DIMS="64 128" VARIANTS="alibi" bash bench/compile-variants.sh carry-V/v-old > /dev/null
git apply -R $here/nohoist.patch && bash scripts/build.sh > /dev/null
echo "carry-V: $(du -sm carry-V | cut -f1) MiB"
