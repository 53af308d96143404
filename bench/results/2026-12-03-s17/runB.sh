#!/usr/bin/env bash
# session 17 call B: persistent sm_90a cases; the dK/dV issue-order branch (dP before the scale reads S) cases;
# backward before/after/dpb next to peers; FA3-shape dK/dV against the defaults
mkdir -p $OUT/r
t0=$(date +%s)
for t in persist bwd-dpb; do tar xzf carry3/$t.tgz; done
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 200 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
for c in after dpb before; do
  timeout 70 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/s17/bwd-$c --seqlens=2048,8192,16384 --json=$OUT/r/bwd-$c.json > $OUT/r/bwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 90 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 2048,8192,16384 --json $OUT/r/peers-bwd.json > $OUT/r/peers-bwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/bwd_kernels.py --ptx-dir carry/s17/torch-ptx --sweep-dir carry/s17/sweep --dims 64,128 --seqlens 4096,16384 --json $OUT/r/sweep.json > $OUT/r/sweep.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
for c in after dpb before; do echo "== $c"; grep -v "^#" $OUT/r/bwd-$c.txt | tail -13; done; tail -14 $OUT/r/peers-bwd.txt; cat $OUT/r/sweep.txt | tail -30
cd $OUT && tar czf r.tgz r && rm -rf r
