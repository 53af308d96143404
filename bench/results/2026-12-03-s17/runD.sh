#!/usr/bin/env bash
# session 17 call D: persistent causal forward, longest-first axis slowest in alternating rounds: cases + speed next to the default and the peers
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry3/persist-new.tgz
OUT=$OUT/r timeout 100 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -5; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head -5; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
PARTS=$OUT/r/parts timeout 60 bash bench/run.sh carry/s17/pers 1024,4096,16384 $OUT/r/pers.json 12 > $OUT/r/pers.txt 2>&1; echo "bench rc $? $(( $(date +%s)-t0 ))s"
timeout 45 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/peers-fwd.json > $OUT/r/peers-fwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/pers.txt | head -30; grep "	1	" $OUT/r/peers-fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
