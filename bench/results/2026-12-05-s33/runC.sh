#!/usr/bin/env bash
# Session 33's call C: Q·Kᵀ over the two column tiles of d = 192 chained
# (the second part's wgmmas add onto the first's accumulators in flight,
# no wait between them; tilegpu-sink-dot-waits) — cbase (Q in shared
# memory, HEAD's default otherwise), cq (Q in registers), cqn128 ((192, 128)
# with 128-key blocks) — beside the same schedules without the chain
# (base: call A's; qreg, qn128: call B's). Carry: carry-A/base, carry-B/qreg,
# carry-B/qn128 copied, and with the chain built:
#   (cbase, "192 192v128", ""), (cq, "192 192v128", --a-in-shared=false),
#   (cqn128, 192v128, "--a-in-shared=false --set block_n=128"):
#   DIMS=... VARIANTS="dense causal" SETS=... bash bench/compile-variants.sh carry-C/name
# On the device: rm -rf carry && mv carry-C carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs base=carry/base,cbase=carry/cbase,qreg=carry/qreg,cq=carry/cq --variants dense,causal --dims 192 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd192 > $OUT/r/fwd192.txt 2>&1; echo "fwd192 rc $? $(( $(date +%s)-t0 ))s"
timeout 250 python3 bench/compare.py --dirs base=carry/base,cbase=carry/cbase,qreg=carry/qreg,cq=carry/cq,qn128=carry/qn128,cqn128=carry/cqn128 --variants dense,causal --dims 192v128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwdmla > $OUT/r/fwdmla.txt 2>&1; echo "fwdmla rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens 1024,4096,16384 --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd192.txt $OUT/r/fwdmla.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#\|Warning\|fn = " $OUT/r/heads.txt
cd $OUT && tar czf r.tgz r && rm -rf r
