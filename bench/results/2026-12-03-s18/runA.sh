#!/usr/bin/env bash
# session 18 call A: dK/dV at d = 128 in FlashAttention-3's shape beside masks (maskTransposed) and for GQA (pairs loop):
# cases + sanitizers (branch s18-kv-mask-fa3); backward main vs branch next to peers; per-kernel main vs branch
# (causal, window, GQA 2) and d = 64 in FA3's shape.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s18/bwd-cases.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 240 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
for c in branch main; do
  timeout 70 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/s18/bench-$c --seqlens=1024,2048,4096,8192,16384 --json=$OUT/r/bwd-$c.json > $OUT/r/bwd-$c.txt 2>&1; echo "bench $c rc $? $(( $(date +%s)-t0 ))s"
done
timeout 90 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/peers-bwd.json > $OUT/r/peers-bwd.txt 2>&1; echo "peers rc $? $(( $(date +%s)-t0 ))s"
timeout 90 python3 bench/bwd_kernels.py --ptx-dir carry/s18/torch-ptx --sweep-dir carry/s18/sweep --dims 64,128 --seqlens 1024,4096,16384 --variants ",causal,sliding_window,gqa" --json $OUT/r/sweep.json > $OUT/r/sweep.txt 2>&1; echo "sweep rc $? $(( $(date +%s)-t0 ))s"
for c in branch main; do echo "== $c"; grep -v "^#" $OUT/r/bwd-$c.txt | grep -v fused | tail -22; done; tail -22 $OUT/r/peers-bwd.txt; cat $OUT/r/sweep.txt | tail -60
cd $OUT && tar czf r.tgz r && rm -rf r
