#!/usr/bin/env bash
# session 22 call O: the persistent forward with TMA stores in its tile loop: the sm_90a
# PERSISTENT=1 cases (full grid and 2 programs) with sanitizers; then default (vec) vs
# persistent before (p-old) and after (p-new), dense/causal d 64/128 x 1k/4k, alternating.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/c5.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
tail -n 1 $OUT/r/gpu-cases-persistent.log $OUT/r/gpu-cases-persistent-2.log 2>&1 | grep cases; echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
grep -h FAIL $OUT/r/gpu-cases-persistent*.log | head
python3 bench/compare.py --dirs default=carry/v-vec,pold=carry/p-old,pnew=carry/p-new --variants dense,causal --dims 64,128 --seqlens 1024,4096 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt
cd $OUT && tar czf r.tgz r && rm -rf r
