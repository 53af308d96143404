#!/usr/bin/env bash
# Makes carry-C/ for runC.sh (from the repository root after
# scripts/build.sh): make-carry-B.sh's d = 128 backward sets (old, new:
# --f32-staging-bytes=32, lse: --set statistics=lse_top, both) and six of
# its cases, small enough for a call of about four minutes; and the d = 64
# dense forward's two schedules for ab_cudnn.py.
set -euo pipefail
bash bench/results/2026-12-07-s50/make-carry-B.sh > /dev/null
rm -rf carry-C && mkdir -p carry-C/cases
for s in old new lse both; do
  mkdir -p carry-C/$s && cp carry-B/$s/*_d128.* carry-C/$s/
done
for c in both128_causal both128_gqa lse128_ragged d64_causal_f16 v192_gqa3 v192_softcap; do
  cp -r /tmp/s50/b/$c carry-C/cases/
done
# The d = 64 dense forward, default and seq_schedule=long (256-row tiles, the
# Python launcher's choice from 4k), for ab_cudnn.py beside cuDNN.
carry=carry-C
. bench/results/carry-lib.sh
VARIANTS=dense comp f64def 64 ""
VARIANTS=dense comp f64long 64 "--set seq_schedule=long"
du -sh carry-C
