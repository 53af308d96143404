#!/usr/bin/env bash
# session 21 call E: the standard GPU cases (every example and variant, sm_80 and the
# sm_90a dot kernels; ragged, empty rows, f16) with the reciprocal epilogue and the
# contracted score modifiers, + sanitizers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s21/cases-e.tgz
ls -d gpu-cases* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 500 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
tail -5 $OUT/r/check.txt
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases*
cd $OUT && tar czf r.tgz r && rm -rf r
