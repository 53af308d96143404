#!/usr/bin/env bash
# runGH.sh reordered by priority for what device time is left (the output
# under $OUT comes back even if the call runs out): the opaque offsets'
# and four-loop bisection's cases (carry-H), the d = 128 backward (def /
# octr / octrb), the d = 64 (old64 / o / ob), cuDNN's backward, carry-F's
# bisection cases, then the forwards before/after.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c /tmp/h && tar xzf carry-F/cases.tgz -C /tmp/c && tar xzf carry-H/cases.tgz -C /tmp/h
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
cases() {
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$1/c > $OUT/r/cases-$1.txt 2>&1
  echo "cases $1 rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$1.txt; grep -h "FAIL" $OUT/r/cases-$1.txt | head
}
cases h
H=carry-H G=carry-G
timeout 110 python3 bench/compare.py --pass bwd --dirs def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b128 > $OUT/r/b128.txt 2>&1
echo "b128 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b128.txt
timeout 110 python3 bench/compare.py --pass bwd --dirs old64=$H/b-old64,o=$H/b-o,ob=$H/b-ob \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b64 > $OUT/r/b64.txt 2>&1
echo "b64 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b64.txt
timeout 60 python3 $G/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
cases c
timeout 50 python3 bench/compare.py --dirs old=$H/fold,new=$H/fnew --dims 96,128 \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt
