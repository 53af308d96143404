#!/usr/bin/env bash
# Session 44's calls G and H in one, cut to the device time left after
# failed starts: the GPU cases of carry-F (bisected query ranges) and
# carry-H (opaque shared offsets), all programs, launched twice; then the
# timings, two alternating runs each, cuDNN's backward in the same call:
# d = 64 backward defaults before (old64), with the opaque offsets (o) and
# bisecting too (ob); d = 128 one program a tile (def), persistent with a
# tile counter before (ctr) and after (octr), bisecting (octrb); the d = 96
# and 128 forwards before and after. carry-F/cases.tgz was remade in
# session 44 with its bisection as four loops of two bounds each.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c /tmp/h && tar xzf carry-F/cases.tgz -C /tmp/c && tar xzf carry-H/cases.tgz -C /tmp/h
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
for set in h c; do
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$set/c > $OUT/r/cases-$set.txt 2>&1
  echo "cases $set rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$set.txt; grep -h "FAIL" $OUT/r/cases-$set.txt | head
done
H=carry-H G=carry-G
timeout 120 python3 bench/compare.py --pass bwd --dirs old64=$H/b-old64,o=$H/b-o,ob=$H/b-ob \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b64 > $OUT/r/b64.txt 2>&1
echo "b64 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b64.txt
timeout 150 python3 bench/compare.py --pass bwd \
  --dirs def=$H/b-def128,ctr=$G/b-ctr,octr=$H/b-octr,octrb=$H/b-octrb \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b128 > $OUT/r/b128.txt 2>&1
echo "b128 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b128.txt
timeout 60 python3 $G/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
timeout 50 python3 bench/compare.py --dirs old=$H/fold,new=$H/fnew --dims 96,128 \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt
