#!/usr/bin/env bash
# Session 45's device call (carries carry-F, carry-H from session 44's
# make-carries.sh, carry-K from make-carry-K.sh). In order of priority:
# 1. GPU cases: the key blocks in parts (carry-K, d = 64), then session
#    44's (the opaque shared offsets, the four-loop bisection; carry-H,
#    carry-F), all programs, launched twice.
# 2. The d = 64 forward at block_n 64 / 128 / 176 / 112 beside cuDNN.
# 3. Session 44's backward timings (runGH2.sh's, shortened).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c /tmp/h /tmp/k && tar xzf carry-F/cases.tgz -C /tmp/c &&
  tar xzf carry-H/cases.tgz -C /tmp/h && tar xzf carry-K/cases.tgz -C /tmp/k
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
for set in k/k h/c c/c; do
  name=${set%%/*}
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$set > $OUT/r/cases-$name.txt 2>&1
  echo "cases $name rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$name.txt; grep -h "FAIL" $OUT/r/cases-$name.txt | head
done
K=carry-K H=carry-H
timeout 80 python3 bench/compare.py --dirs n64=$K/n64,n128=$K/n128,n176=$K/n176,n112=$K/n112 \
  --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fk > $OUT/r/fk.txt 2>&1
echo "fwd parts rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fk.txt
timeout 40 python3 $K/peer_sdpa.py --dims 64 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-fwd.json \
  > $OUT/r/sdpa-fwd.txt 2>&1
echo "sdpa fwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-fwd.txt
compare_bwd() { # name seconds dirs
  timeout $2 python3 bench/compare.py --pass bwd --dirs $3 --seqlens 1024,4096,16384 --reps 2 \
    --out $OUT/r/$1 > $OUT/r/$1.txt 2>&1
  echo "$1 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/$1.txt
}
compare_bwd b128 110 def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb
compare_bwd b64 100 old64=$H/b-old64,o=$H/b-o,ob=$H/b-ob
timeout 60 python3 $H/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
