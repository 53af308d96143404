#!/usr/bin/env bash
# Session 41's call C (make-carry-C.sh): the fused backward converting dq in
# its last program (dq_convert=last_program) — GPU cases (each launched
# twice: the counters and dq_acc must come back to zero), memcheck and
# racecheck — then timed against the landed defaults (prep + fused +
# convert) at d = 64 and 128, cuDNN in the same call.
# On the device: rm -rf carry && mv carry-C carry first. LP names the
# last_program set (runD.sh: lp2).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c && tar xzf carry/cases.tgz -C /tmp/c
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/c/c $OUT/r
mkdir -p /tmp/one && cp -r /tmp/c/c/lp_fused_causal_d64_ragged /tmp/c/c/lp_fused_gqa3_d128 /tmp/one/
sanitize memcheck /tmp/one $OUT/r
sanitize racecheck /tmp/one $OUT/r
echo "checks $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --pass bwd --dirs base=carry/b-base,${LP:-lp}=carry/b-${LP:-lp} \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
grep -h "parts\|by kernel" $OUT/r/bwd/*-1.txt | head -0
cd $OUT && tar czf r.tgz r && rm -rf r
