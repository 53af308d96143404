#!/usr/bin/env bash
# session 17 call A: HEAD (step descriptors, lower-conversions re-read) on the GPU: DEFAULTS, WS subset, tilegpu backward cases + sanitizers;
# forward before (step descriptors reverted) / after next to peers
mkdir -p $OUT/r
t0=$(date +%s)
for t in defaults ws bwdtg; do tar xzf carry3/$t.tgz; done
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 330 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
for c in after before; do
  PARTS=$OUT/r/parts-$c timeout 120 bash bench/run.sh carry/s17/fwd-$c 1024,4096,16384 $OUT/r/fwd-$c.json 20 > $OUT/r/fwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 100 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/peers-fwd.json > $OUT/r/peers-fwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
cd $OUT && tar czf r.tgz r && rm -rf r
