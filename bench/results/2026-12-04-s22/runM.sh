#!/usr/bin/env bash
# session 22 call M: sm_90a standard + DEFAULTS cases and the tilegpu tiles with the
# vectorized shared accesses, sanitizers; then tma (TMA stores) vs vec (+ vector
# local_store/load), alternating, dense/causal d 64/128/256 x 1k/4k/16k.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/c3.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
tail -1 $OUT/r/gpu-cases.log $OUT/r/gpu-cases-defaults.log; grep -h "^tilegpu\|SKIP\|FAIL" $OUT/r/tilegpu-*.log; echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --dirs tma=carry/v-tma,vec=carry/v-vec --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt
cd $OUT && tar czf r.tgz r && rm -rf r
