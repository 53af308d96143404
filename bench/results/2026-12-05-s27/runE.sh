#!/usr/bin/env bash
# NOT RUN in session 25 (no device was lent): a later session's first call.
# Session 25 call B: head dims on the H200, sm_80 PTX (JIT on sm_90) (HEAD 6b6a2b1 or later): every kind of
# attention kernel at d = 8 ... 256, (192, 128), (128, 64), padded and split into column
# tiles (split_columns; 32- and 16-column tiles as wgmma B operands with 64/32-byte
# swizzles), d = 16/32 split; repeated bitwise; memcheck/racecheck/synccheck on a subset.
# carry/cases.tgz: ARCHS=sm_80 HEADDIMS=1 bash scripts/gpu-cases.sh DIR/gpu-cases-headdims,
# tar czf carry/cases.tgz -C DIR gpu-cases-headdims (~49 MB).
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
