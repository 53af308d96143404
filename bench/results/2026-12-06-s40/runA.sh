#!/usr/bin/env bash
# Session 40's call A (make-carry-A.sh): d = 64 backward at 128 query rows
# per step, scores as [queries, keys] — cases, memcheck, speed beside cuDNN.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz -C /tmp
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/c $OUT/r
mkdir -p /tmp/mc && cp -r /tmp/c/sm90a_bwd_fused_causal_d64_ragged /tmp/c/sm90a_bwd_fused_gqa3_d64 /tmp/mc/
sanitize memcheck /tmp/mc $OUT/r
sanitize racecheck /tmp/mc $OUT/r
echo "cases done $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --pass bwd --dims 64 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 bench/compare.py --pass bwd --dirs base=carry/b-base,qm=carry/b-qm \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
