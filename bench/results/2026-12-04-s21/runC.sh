#!/usr/bin/env bash
# session 21 call C: score modifiers contracted (fma): the GPU cases of ALiBi, soft-capping
# and the bias table (forward defaults at d = 64/256, backward, decoding, packed, runtime
# inputs; sm_80 and sm_90a) + sanitizers; ALiBi's d = 128 forward on other schedules
# (block_n = 64; no overlap) next to the default, alternating, and FlexAttention.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s21/cases-c.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 300 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
for rep in 1 2 3; do
  for c in v-ct x-bn64 x-nov; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s21/$c --variants alibi --seqlens 8192,16384 --json $OUT/r/alibi-$c-$rep.json > $OUT/r/alibi-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 100 python3 carry/peer_flex.py --seqlens 8192,16384 --variants alibi --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/alibi-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f; done; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
