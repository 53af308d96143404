#!/usr/bin/env bash
# Session 43's call D2 (make-carry-D.sh, right after D1 on the same
# machine): timings. The d = 64 backward (prep + fused + convert) with the
# fused kernel on a persistent grid (pers), with the tile counter (ctr) and
# with dq_convert=last_program (plp) against the default, two alternating
# runs, cuDNN's backward in the same call; then the d = 64 dense forward,
# default and seq_schedule=long, N = 1k-16k, cuDNN's forward.
# On the device: carry/ as D1 left it (else rm -rf carry && mv carry-D carry).
. bench/results/lib.sh
call_header
[ -d carry/b-def ] || { rm -rf carry && mv carry-D carry; }
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
timeout 200 python3 bench/compare.py --pass bwd \
  --dirs def=carry/b-def,pers=carry/b-pers,ctr=carry/b-ctr,plp=carry/b-plp \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --pass bwd --dims 64 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
S="1024,2048,4096,8192,16384"
timeout 120 python3 bench/compare.py --dirs def=carry/fdef,long=carry/flong \
  --variants dense --dims 64 --seqlens $S --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json \
  > $OUT/r/sdpa.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
