#!/usr/bin/env bash
# Session 32's call H: issue 17's head dims at HEAD beside cuDNN (H100):
# d = 96, 192 and (192, 128), dense and causal. Carry:
#   DIMS="96 192 192v128" VARIANTS="dense causal" bash bench/compile-variants.sh carry-H/head
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 python3 bench/compare.py --dirs head=carry/head --variants dense,causal --dims 96,192,192v128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 96,192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
