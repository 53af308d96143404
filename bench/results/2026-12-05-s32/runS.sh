#!/usr/bin/env bash
# Session 32's call S: with the rings released on mbarriers (rel/, call R's),
# the d = 64 forward with three ring slots (st3), with Q·Kᵀ beside the
# previous P·V (ov), and both (ov3). Carry made by:
#   DIMS=64 VARIANTS="dense causal" SETS="--pipeline-stages=3" bash bench/compile-variants.sh carry-S/st3
#   (SETS="--set overlap=on" for ov, both for ov3), rel/ copied from carry-R.
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 250 python3 bench/compare.py --dirs rel=carry/rel,st3=carry/st3,ov=carry/ov,ov3=carry/ov3 --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $?"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
