#!/usr/bin/env bash
# Session 47's calls A1-A4 (PART=N bash runA.sh; carry-AN from make-carry-A.sh PART=N): the
# standard GPU case sets' forward kernels with session 46's defaults,
# through scripts/gpu-check.sh (each case on all programs; the persistent
# and counter sets on 2 programs too; its memcheck / racecheck / synccheck
# lists where their cases are present). Raw logs in $OUT/r.tgz.
. bench/results/lib.sh
call_header
rm -rf gpu-cases* # a warm machine keeps the last part's (ignored) sets
tar xzf carry-A${PART:?PART=1-4}/cases.tgz
OUT=$OUT/r timeout 540 bash scripts/gpu-check.sh > $OUT/check.txt 2>&1
echo "check rc $? $(elapsed)"
grep -E "cases:|^FAIL|FAIL " $OUT/check.txt | head -40
cat $OUT/r/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
