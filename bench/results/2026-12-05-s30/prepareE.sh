#!/usr/bin/env bash
# Session 30's call E: bisect sm90a_row_groups2_fwd_d128 (call AB: O
# normalized error 0.75, lse right). Its mma.sync loop ends in two wgmma
# dots on column blocks (warpgroup 1 on columns 64-127) whose O goes out by
# TMA with stmatrix staging. The case's inputs once, its kernel compiled
# six ways: as is (cur), no stmatrix staging (nomatrix: b652ca9 undone), no
# TMA (notma), mma.sync only (nowgmma), no column blocks (nocols: the final
# dots' accumulators keep the loop's layout) and no XOR offsets (noxor:
# c92223c undone). Run from the repository root after a build; then
# runE.sh through the device tool. (As run in session 30, "cur" and the
# patched builds were compiled at 9ef49c3, before the fence fix; "fixed" is
# the case as tilegpu-insert-barriers places fences since, added by hand:
# `variant fixed` at a commit with the fix.)
set -euo pipefail
here=bench/results/2026-12-05-s30
case=sm90a_row_groups2_fwd_d128
args=(--kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set row_groups=2
      --set block_n=64)
rm -rf carry && mkdir -p carry/cases
build/bin/tilec "${args[@]}" --size batch=2 --size seq_q=200 --size seq_k=333 \
  --export-case=carry/cases/${case}_cur > /dev/null
variant() { # name, then tilec flags
  local name=$1; shift
  cp -r carry/cases/${case}_cur carry/cases/${case}_$name
  build/bin/tilec "${args[@]}" "$@" --emit=ptx -o carry/cases/${case}_$name/kernel.ptx 2> /dev/null
}
variant notma --tma=false
variant nowgmma --wgmma=false
for patch in nomatrix nocols noxor; do
  file=$here/$patch.patch
  [ $patch = nomatrix ] && file=bench/results/2026-12-05-s29/nomatrix.patch
  git apply $file && bash scripts/build.sh > /dev/null
  variant $patch
  git apply -R $file
done
bash scripts/build.sh > /dev/null
for d in carry/cases/*; do echo "$d $(md5sum < $d/kernel.ptx | cut -c1-8)"; done
