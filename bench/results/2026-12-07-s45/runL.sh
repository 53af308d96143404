#!/usr/bin/env bash
# Session 45's second call (carry-L from make-carry-L.sh): the GPU cases
# of d = 96 and 192 in key parts, then their forwards against the
# defaults, then cuDNN at 96 and 192.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/l && tar xzf carry-L/cases.tgz -C /tmp/l
t0=$(date +%s)
build_run_case; echo "build $(( $(date +%s)-t0 ))s"
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/l/l > $OUT/r/cases-l.txt 2>&1
echo "cases l rc $? $(( $(date +%s)-t0 ))s"
grep -h "cases:" $OUT/r/cases-l.txt; grep -h "FAIL" $OUT/r/cases-l.txt | head
L=carry-L
compare_fwd() { # name seconds dims dirs
  timeout $2 python3 bench/compare.py --dirs $4 --variants dense,causal --dims $3 \
    --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/$1 > $OUT/r/$1.txt 2>&1
  echo "$1 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/$1.txt
}
compare_fwd f192 100 192 def=$L/d192,n80=$L/d192n80,n112s=$L/d192n112s,n96s=$L/d192n96s
compare_fwd f96 50 96 def=$L/d96,n176=$L/d96n176
timeout 50 python3 $L/peer_sdpa.py --dims 96,192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-fwd.json \
  > $OUT/r/sdpa-fwd.txt 2>&1
echo "sdpa fwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-fwd.txt
