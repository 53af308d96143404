#!/usr/bin/env bash
# Session 35's call PQ: session 34's prepared calls P and Q in one call.
# P: the d = 96 defaults (dense persistent, causal one program a tile)
#    against the other grid form (dense --persistent=false, causal
#    --persistent). Q: the d = 128 defaults (Q read by wgmma from shared
#    memory) against Q in registers (--a-in-shared=false --persistent).
# Carry (carry-PQ): p_head/, p_alt/ = session 34's carry-P; q_head/,
# q_qreg/ = carry-Q (recipes in ../2026-12-05-s34/runP.sh and runQ.sh);
# peer_sdpa.py. On the device: rm -rf carry && mv carry-PQ carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
S="1024,2048,4096,8192,16384"
timeout 130 python3 bench/compare.py --dirs head=carry/q_head,qreg=carry/q_qreg --variants dense,causal --dims 128 --seqlens $S --reps 2 --out $OUT/r/q > $OUT/r/q.txt 2>&1; echo "q rc $? $(( $(date +%s)-t0 ))s"
timeout 130 python3 bench/compare.py --dirs head=carry/p_head,alt=carry/p_alt --variants dense,causal --dims 96 --seqlens $S --reps 2 --out $OUT/r/p > $OUT/r/p.txt 2>&1; echo "p rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 96,128 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/q.txt $OUT/r/p.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
