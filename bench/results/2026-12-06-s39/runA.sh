#!/usr/bin/env bash
# Session 39's call A (make-carry-A.sh): the fused backward's dQ store
# beside dK's dot — cases, racecheck, then speed next to cuDNN.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz -C /tmp
build_run_case
cmake --build build-gpu --target tilec-bench > /dev/null 2>&1; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/dflt $OUT/r
run_cases /tmp/dot $OUT/r
for c in sm90a_bwd_fused_causal_d128_ragged sm90a_bwd_fused_gqa_d64_multi; do
  mkdir -p /tmp/rc/$c && cp -r /tmp/dot/$c /tmp/rc/$c/
  sanitize racecheck /tmp/rc/$c $OUT/r
  mv $OUT/r/racecheck.txt $OUT/r/racecheck-$c.txt
done
echo "cases done $(( $(date +%s)-t0 ))s"
timeout 120 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 240 python3 bench/compare.py --pass bwd --dirs new=carry/b-new,dot=carry/b-dot \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
