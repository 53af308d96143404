#!/usr/bin/env bash
# session 19 call A: epilogue stores from their own %tid.x read + producer warpgroup for masked/GQA dK/dV d = 128:
# forward default cases (sm_90a) + sm_90a dK/dV/dQ backward cases + sanitizers; backward main vs new next to peers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s19/cases-a.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 250 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
for c in new main; do
  timeout 80 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/s19/bench-$c --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c.json > $OUT/r/bwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 80 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/peers-bwd.json > $OUT/r/peers-bwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
for c in new main; do echo "== $c"; grep -v "^#" $OUT/r/bwd-$c.txt; done; tail -13 $OUT/r/peers-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
