#!/usr/bin/env bash
# session 19 call C: sm_90a packed (varlen) and fused backward cases + sanitizers; forward defaults main vs new
# (epilogue stores from their own %tid.x) next to peers; window dK/dV d = 128 again (call B: N = 1k +19 %?).
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s19/cases-c.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 200 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
for c in new main; do
  PARTS=$OUT/r/fwd-$c timeout 110 bash bench/run.sh carry/s19/fwd-$c 1024,4096,16384 $OUT/r/fwd-$c.json 25 > $OUT/r/fwd-$c.txt 2>&1; echo "fwd $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 100 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/peers-fwd.json > $OUT/r/peers-fwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/bwd_kernels.py --ptx-dir carry/s19/tp --sweep-dir carry/s19/sw --dims 128 --seqlens 1024,4096 --variants "sliding_window,causal" --json $OUT/r/sweep2.json > $OUT/r/sweep2.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
for c in new main; do echo "== $c"; grep -v "^#" $OUT/r/fwd-$c.txt; done; tail -20 $OUT/r/peers-fwd.txt; grep -v "^d.*err vs sdpa" $OUT/r/sweep2.txt; grep -o "^d[0-9]* N[0-9]* [a-z_]* .*dkdv [0-9.]*" $OUT/r/sweep2.txt
cd $OUT && tar czf r.tgz r && rm -rf r
