#!/usr/bin/env bash
# session 24 call C: d = 256 forwards with overlap by default (Q·Kᵀ beside the previous
# block's P·V): the DEFAULTS=1 case set (every variant at d = 64 and 256, sm_90a) and its
# sanitizer runs; every variant at d = 256 before/after, alternating.
# carry/cases.tgz: DEFAULTS=1 scripts/gpu-cases.sh DIR/gpu-cases-defaults (this tree).
# carry/v-old, carry/v-new: DIMS=256 bench/compile-variants.sh by HEAD 6139048's tilec and this tree's.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --dirs old=carry/v-old,new=carry/v-new --variants dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,document --dims 256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt
cd $OUT && tar czf r.tgz r && rm -rf r
