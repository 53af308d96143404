#!/usr/bin/env bash
# session 20 call E: the final document forward (listed blocks pipelined, seq_k checked as key
# offset < keys left): every sm_80 and sm_90a document forward case + sanitizers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s20/cases-e.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 240 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
grep -E "^== " $OUT/r/memcheck.log | head -20
rm -rf gpu-cases-*
cd $OUT && tar czf r.tgz r && rm -rf r
