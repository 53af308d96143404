#!/usr/bin/env bash
# Makes carry-F/ and carry-H/ for runGH2.sh from a clean checkout of main
# (after scripts/setup.sh): F (session 43's script: main's defaults,
# bisecting, the bisection's GPU cases) and the forwards before (fold) with
# main built; then H with shared-offsets.patch applied and built (the
# opaque shared offsets; `git am` it to land it), and main restored and
# built again.
set -euo pipefail
cd "$(dirname "$0")/../../.."
[ -z "$(git status --porcelain --untracked-files=no)" ] || { echo "commit or stash first" >&2; exit 1; }
s44=bench/results/2026-12-07-s44
bash scripts/build.sh > /dev/null
bash bench/results/2026-12-06-s43/make-carry-F.sh
rm -rf /tmp/s44-fold && DIMS="128 96" VARIANTS="dense causal" bash bench/compile-variants.sh /tmp/s44-fold
git apply $s44/shared-offsets.patch && bash scripts/build.sh > /dev/null
bash $s44/make-carry-H.sh
mv /tmp/s44-fold carry-H/fold
DIMS="128 96" VARIANTS="dense causal" bash bench/compile-variants.sh carry-H/fnew
rm -f carry-H/fold/flash_attention_block_mask_* carry-H/fnew/flash_attention_block_mask_*
git apply -R $s44/shared-offsets.patch && bash scripts/build.sh > /dev/null
du -shc carry-F carry-H
