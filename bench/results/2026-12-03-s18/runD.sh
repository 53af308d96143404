#!/usr/bin/env bash
# session 18 call D: dK/dV's row statistics read where used (all dK/dV kernels) and dense d = 128 dK/dV with a producer
# warpgroup (branch s18-dkdv-ws): cases + sanitizers; backward main (92bc783 = bench-branch) vs ws next to peers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s18/bwd-cases.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 220 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
for c in ws branch; do
  timeout 80 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/s18/bench-$c --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c.json > $OUT/r/bwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 80 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/peers-bwd.json > $OUT/r/peers-bwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
for c in ws branch; do echo "== $c"; grep -v "^#" $OUT/r/bwd-$c.txt; done; tail -13 $OUT/r/peers-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
