#!/usr/bin/env bash
# session 19 call B: persistent forward cases + sm_90a inference cases (decode, paged, varlen forward) + sanitizers;
# per-kernel dK/dV: new (producer warpgroup for masked/GQA d = 128, epilogue from its own %tid.x) vs main;
# persistent forward main vs new (spill-free now) beside the default kernels.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s19/cases-b.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 230 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
timeout 150 python3 bench/bwd_kernels.py --ptx-dir carry/s19/tp --sweep-dir carry/s19/sw --dims 64,128 --seqlens 1024,4096,16384 --variants ",causal,gqa,sliding_window,prefix_lm" --json $OUT/r/sweep.json > $OUT/r/sweep.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
for c in new main; do
  PARTS=$OUT/r/pers-$c timeout 100 bash bench/run.sh carry/s19/pers-$c 1024,4096,16384 $OUT/r/pers-$c.json 25 > $OUT/r/pers-$c.txt 2>&1; echo "pers $c rc $? $(( $(date +%s)-t0 ))s"
done
cat $OUT/r/sweep.txt; for c in new main; do echo "== $c"; grep -v "^#" $OUT/r/pers-$c.txt; done
cd $OUT && tar czf r.tgz r && rm -rf r
