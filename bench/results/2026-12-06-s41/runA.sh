#!/usr/bin/env bash
# Session 41's call A (make-carry-A.sh): the d = 64 backward with the landed
# defaults beside cuDNN and FlashAttention-2 (session 40's call E), and the
# d = 64 forward's default against 256-row tiles on four warpgroups, three
# alternating runs, cuDNN's forward in the same call.
# On the device: rm -rf carry && mv carry-A carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --pass bwd --dims 64 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 90 python3 bench/compare.py --pass bwd --dirs tilec=carry/b-tilec \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
S="1024,2048,4096,8192,16384"
timeout 220 python3 bench/compare.py --dirs def=carry/fdef,m256=carry/f256,m256s3=carry/f256s3 \
  --variants dense,causal --dims 64 --seqlens $S --reps 3 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt; cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
