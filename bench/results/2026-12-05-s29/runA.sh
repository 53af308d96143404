#!/usr/bin/env bash
# Session 29's call A (correctness); prepare with `prepare.sh A`, see its header.
mkdir -p $OUT/r
t0=$(date +%s)
rm -rf gpu-cases gpu-cases-bwd gpu-cases-persistent gpu-cases-headdims
tar xzf carry/cases.tgz
OUT=$OUT/r timeout 540 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt 2>/dev/null; tail -3 $OUT/r/check.txt
grep -h "FAIL" $OUT/r/gpu-cases*.log | head -30
cd $OUT && tar czf r.tgz r && rm -rf r
