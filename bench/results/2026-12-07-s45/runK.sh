#!/usr/bin/env bash
# Session 45's device call (carries carry-H from session 44's
# make-carries.sh without its fold/ and fnew/, and carry-K from
# make-carry-K.sh; session 44's carry-F stays behind: 64 MiB). In order of
# priority:
# 1. GPU cases, all programs, launched twice: the key blocks in parts
#    (carry-K: d = 64, 128, 256), then session 44's (the opaque shared
#    offsets, the four-loop bisection; carry-H).
# 2. The forward in key parts against the defaults beside cuDNN (d = 128:
#    176, 192, 176 persistent; d = 256: 80), session 44's d = 128 backward
#    timings (runGH2.sh's) beside cuDNN's, then d = 192 (80, 112 and 96
#    keys), d = 96 (176, 192), d = 128's default with last_values=ring, d = 64
#    (128, 176), session 44's d = 64 backward.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/h /tmp/k && tar xzf carry-H/cases.tgz -C /tmp/h &&
  tar xzf carry-K/cases.tgz -C /tmp/k
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
for set in k/k h/c; do
  name=${set%%/*}
  timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$set > $OUT/r/cases-$name.txt 2>&1
  echo "cases $name rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$name.txt; grep -h "FAIL" $OUT/r/cases-$name.txt | head
done
K=carry-K H=carry-H
compare_fwd() { # name seconds dims dirs
  timeout $2 python3 bench/compare.py --dirs $4 --variants dense,causal --dims $3 \
    --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/$1 > $OUT/r/$1.txt 2>&1
  echo "$1 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/$1.txt
}
compare_fwd f128 95 128 def=$K/d128,n176=$K/d128n176,n192=$K/d128n192,n176p=$K/d128n176p
timeout 70 python3 $K/peer_sdpa.py --dims 64,96,128,192,256 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-fwd.json > $OUT/r/sdpa-fwd.txt 2>&1
echo "sdpa fwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-fwd.txt
compare_fwd f256 50 256 def=$K/d256,n80=$K/d256n80
compare_bwd() { # name seconds dirs
  timeout $2 python3 bench/compare.py --pass bwd --dirs $3 --seqlens 1024,4096,16384 --reps 2 \
    --out $OUT/r/$1 > $OUT/r/$1.txt 2>&1
  echo "$1 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/$1.txt
}
compare_bwd b128 100 def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb
timeout 45 python3 $H/peer_sdpa.py --pass bwd --dims 128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
compare_fwd f192 90 192 def=$K/d192,n80=$K/d192n80,n112s=$K/d192n112s,n96s=$K/d192n96s
compare_fwd f96 60 96 def=$K/d96,n176=$K/d96n176,n192=$K/d96n192
compare_fwd f128r 45 128 def=$K/d128,ring=$K/d128ring
compare_fwd f64 60 64 def=$K/d64,n128=$K/d64n128,n176=$K/d64n176
compare_bwd b64 100 old64=$H/b-old64,o=$H/b-o,ob=$H/b-ob
