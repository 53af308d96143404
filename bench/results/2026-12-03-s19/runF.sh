#!/usr/bin/env bash
# session 19 call F: ALiBi with positions made floats per key column and query row (not per score):
# its forward, backward, decode and packed cases (sm_80 + sm_90a) + sanitizers; forward next to Flex (new, main, twice);
# dK/dV and dQ per kernel, new vs main.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s19/cases-f.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 150 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
for i in 1 2; do for c in new main; do
  timeout 30 python3 bench/variants.py --ptx-dir carry/s19/alibi-$c --variants alibi --seqlens 8192,16384 --json $OUT/r/alibi-$c-$i.json > $OUT/r/alibi-$c-$i.txt 2>&1
  grep -v "^#\|^variant" $OUT/r/alibi-$c-$i.txt | awk -v c=$c -v i=$i '{print c, i, $1, $3, $4, $5, $6}'
done; done
timeout 60 python3 carry/peer_flex.py --variants alibi --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"; cat $OUT/r/flex.txt
timeout 90 python3 bench/bwd_kernels.py --ptx-dir carry/s19/tpa --sweep-dir carry/s19/swa --dims 64,128 --seqlens 1024,4096,16384 --variants alibi --json $OUT/r/sweep.json > $OUT/r/sweep.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/sweep.txt | sed 's/err vs sdpa.*//'
cd $OUT && tar czf r.tgz r && rm -rf r
