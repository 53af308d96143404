#!/usr/bin/env bash
# Session 29's call C (the backward: correctness, then speed); prepare with
# `prepare.sh C`, see its header.
mkdir -p $OUT/r
t0=$(date +%s)
rm -rf gpu-cases gpu-cases-bwd gpu-cases-persistent gpu-cases-headdims
tar xzf carry/cases.tgz
OUT=$OUT/r timeout 260 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt 2>/dev/null; tail -3 $OUT/r/check.txt
grep -h "FAIL" $OUT/r/gpu-cases*.log | head -30
timeout 150 python3 bench/compare.py --pass bwd --dirs new=carry/b-new --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1; echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
