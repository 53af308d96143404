#!/usr/bin/env bash
# Session 42's call A (make-carry-A.sh).
# 1. Batch scaling at N = 1k: the forward defaults (d = 64, 128, 256, dense
#    and causal) and cuDNN at 4k, 16k and 64k tokens (B = 4, 16, 64), so
#    that a line through time against B splits each kernel's time into a
#    part per launch and a part per (batch, head): which of the two the
#    1k rows lose to cuDNN.
# 2. The d = 64 dense forward, default against 256-row tiles at 4k-16k,
#    three alternating runs, cuDNN in the same call.
# On the device: rm -rf carry && mv carry-A carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
for T in 4096 16384 65536; do
  timeout 120 python3 bench/variants.py --ptx-dir carry/fdef --variants dense,causal \
    --dims 64,128,256 --seqlens 1024 --tokens $T --json $OUT/r/scale-tilec-$T.json \
    > $OUT/r/scale-tilec-$T.txt 2>&1
  echo "tilec tokens $T rc $? $(( $(date +%s)-t0 ))s"
  timeout 120 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024 --tokens $T \
    --json $OUT/r/scale-sdpa-$T.json > $OUT/r/scale-sdpa-$T.txt 2>&1
  echo "sdpa tokens $T rc $? $(( $(date +%s)-t0 ))s"
done
S="4096,8192,16384"
timeout 200 python3 bench/compare.py --dirs def=carry/fdef,m256=carry/f256 \
  --variants dense --dims 64 --seqlens $S --reps 3 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json \
  > $OUT/r/sdpa.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
grep -hv "^#" $OUT/r/scale-*.txt; cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
