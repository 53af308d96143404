#!/usr/bin/env bash
# session 23 call C: sm_90a cases (standard, DEFAULTS, BWD subset, INFER, PERSISTENT)
# after tilegpu-insert-barriers' role rule (no barriers between the key loops), the
# role barrier before a TMA store's staging, and one barrier after consecutive
# mbarrier inits; with sanitizers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
grep -h "^tilegpu\|SKIP\|FAIL" $OUT/r/tilegpu-*.log
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
cd $OUT && tar czf r.tgz r && rm -rf r
