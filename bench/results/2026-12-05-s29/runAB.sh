#!/usr/bin/env bash
# Calls A and B in one (carry: prepare.sh A's cases.tgz beside prepare.sh B's
# v-def, v-pers, v-lastv): the forward cases, then the forward's speed.
mkdir -p $OUT/r
t0=$(date +%s)
rm -rf gpu-cases gpu-cases-bwd gpu-cases-persistent gpu-cases-headdims
tar xzf carry/cases.tgz
OUT=$OUT/r timeout 250 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt 2>/dev/null; tail -3 $OUT/r/check.txt
grep -h "FAIL" $OUT/r/gpu-cases*.log | head -30
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs def=carry/v-def,pers=carry/v-pers,lastv=carry/v-lastv --dims 128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
