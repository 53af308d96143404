#!/usr/bin/env bash
# Session 28's call B (prepared, not run). Prepare with
# `bash bench/results/2026-12-05-s28/prepare.sh B`; see its header.
mkdir -p $OUT/r
t0=$(date +%s)
rm -rf gpu-cases gpu-cases-bwd gpu-cases-persistent gpu-cases-headdims
tar xzf carry/cases.tgz
OUT=$OUT/r timeout 200 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt 2>/dev/null; tail -3 $OUT/r/check.txt
grep -h "FAIL" $OUT/r/gpu-cases*.log | head -20
TILEC_TEST_PTX_DIR=carry/torch-ptx timeout 240 python3 -m unittest discover -s python/tests -v > $OUT/r/python.txt 2>&1; echo "python rc $? $(( $(date +%s)-t0 ))s"
grep -E "^(test_|Ran|OK|FAILED)|ERROR|FAIL:" $OUT/r/python.txt | head -40
timeout 90 python3 examples/python/train_tiny_transformer.py --ptx-dir carry/torch-ptx --backward fused --log $OUT/r/loss-fused.json > $OUT/r/train-fused.txt 2>&1; echo "train rc $? $(( $(date +%s)-t0 ))s"
tail -12 $OUT/r/train-fused.txt
timeout 120 python3 bench/compare.py --dirs new=carry/v-new --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
