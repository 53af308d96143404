#!/usr/bin/env bash
# session 20 call G: float tiles divided by a number multiply by its reciprocal (soft-capping's
# s / cap was div.rn.f32 per score): every soft-capping case (forward d = 64/128/256, backward,
# decoding, packed) + the packed dK/dV cases whose sm_80 schedule changed, sanitizers; the d = 128
# forward of soft-capping and Gemma-2's windowed soft-capping, main vs new, next to FlexAttention.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s20/cases-g.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 240 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
V=softcap,sliding_window_softcap
for rep in 1 2; do
  for c in main div; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s20/v-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 120 python3 carry/peer_flex.py --seqlens 8192,16384 --variants softcap --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4,6; done; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
