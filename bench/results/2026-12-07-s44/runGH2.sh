#!/usr/bin/env bash
# Session 44's device call, prepared, not run (no device could be started).
# Carries by make-carries.sh: carry-F/ (session 43's script) and carry-H/. In order of priority (what is under $OUT comes back even if the
# call runs out of time):
# 1. GPU cases, all programs, launched twice: the opaque shared offsets and
#    the four-loop bisection (carry-H), then the bisection's cases of every
#    masked variant (carry-F).
# 2. The backward, two alternating runs each: d = 128 one program a tile
#    (def) against persistent with a tile counter with the offsets patch,
#    scanning (octr) and bisecting (octrb); d = 64 main's defaults (old64)
#    against the patch (o) and the patch bisecting (ob). cuDNN's backward.
# 3. The d = 96 and 128 forwards before and after the patch (their
#    persistent epilogues change).
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
H=carry-H
compare_bwd() { # name seconds dirs
  timeout $2 python3 bench/compare.py --pass bwd --dirs $3 --seqlens 1024,4096,16384 --reps 2 \
    --out $OUT/r/$1 > $OUT/r/$1.txt 2>&1
  echo "$1 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/$1.txt
}
compare_bwd b128 110 def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb
compare_bwd b64 110 old64=$H/b-old64,o=$H/b-o,ob=$H/b-ob
timeout 60 python3 $H/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
timeout 50 python3 bench/compare.py --dirs old=$H/fold,new=$H/fnew --dims 96,128 \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt
