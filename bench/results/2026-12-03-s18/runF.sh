#!/usr/bin/env bash
# session 18 call F: d = 64 dK/dV with a producer warpgroup (FA3's shape 64x128 on 8 warps, and 64x64 on 4) and
# FA3's shape with TMA by the consumers, per kernel beside the default (main 85c562c), dense and causal; then
# branch s18-d64-ws (the 64x128 producer-warpgroup kernel as the d = 64 default): its sm_90a dK/dV cases
# + sanitizers, and the backward next to main's and the peers.
mkdir -p $OUT/r
t0=$(date +%s)
timeout 120 python3 bench/bwd_kernels.py --ptx-dir carry/s18/tp3 --sweep-dir carry/s18/sw4 --dims 64 --seqlens 1024,4096,16384 --variants ",causal" --json $OUT/r/sweep-d64.json > $OUT/r/sweep-d64.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/sweep-d64.txt
tar xzf carry/s18/bwd-cases-d64.tgz
OUT=$OUT/r timeout 150 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
for c in d64 branch; do
  timeout 60 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/s18/bench-$c --filter=_d64 --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c.json > $OUT/r/bwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
for c in d64 branch; do echo "== $c"; grep -v "^#" $OUT/r/bwd-$c.txt | grep -v fused; done
cd $OUT && tar czf r.tgz r && rm -rf r
