#!/usr/bin/env bash
# The last of session 44's device time (~250 s): correctness first — the
# opaque offsets' and four-loop bisection's cases (carry-H), carry-F's
# bisection cases — then as much of the d = 128 backward as fits.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c /tmp/h && tar xzf carry-F/cases.tgz -C /tmp/c && tar xzf carry-H/cases.tgz -C /tmp/h
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
for set in h c; do
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$set/c > $OUT/r/cases-$set.txt 2>&1
  echo "cases $set rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$set.txt; grep -h "FAIL" $OUT/r/cases-$set.txt | head
done
H=carry-H
timeout 110 python3 bench/compare.py --pass bwd --dirs def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b128 > $OUT/r/b128.txt 2>&1
echo "b128 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b128.txt
