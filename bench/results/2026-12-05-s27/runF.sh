#!/usr/bin/env bash
# session 27 call F -- NOT RUN, and superseded: the patch landed in session 28 (306e1c3);
# bench/results/2026-12-05-s28/prepare.sh + runA.sh check it and the rest.
# (1) shared-memory addresses as the thread's offset XOR/+ a constant per register
# (SharedPlacement, landed in c92223c: 60 sm_90a kernels' PTX changes, loops unchanged) and
# (2) the fused backward at d = 128 in FlashAttention-3's shape with dQ's dot before dK's
# (fused-d128.patch beside this script, not landed: dense spills 28 bytes outside its
# loops, causal/GQA/prefix-LM none).
# Prepare (CPU machine): git apply bench/results/2026-12-05-s27/fused-d128.patch, build;
#   ARCHS=sm_90a bash scripts/gpu-cases.sh DIR/gpu-cases (keep sm90a_* and tilegpu/);
#   BWD=1 bash scripts/gpu-cases.sh DIR/gpu-cases-bwd, keeping 25 sm90a_bwd_* cases (fused at
#   d = 128 f16/ragged, dense/causal/GQA; d = 64 fused, dK/dV, dQ, prep, convert);
#   tar czf carry/cases.tgz -C DIR gpu-cases gpu-cases-bwd (38 MB);
#   bash bench/compile-bwd.sh carry/b-new; carry/b-cur: the same at HEAD ca65ae3 (or without
#   the patch). With time to spare, add peer_sdpa.py --pass bwd and the forward old/new.
mkdir -p $OUT/r
t0=$(date +%s)
rm -rf gpu-cases gpu-cases-bwd gpu-cases-persistent gpu-cases-headdims
tar xzf carry/cases.tgz
OUT=$OUT/r timeout 90 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt 2>/dev/null; tail -3 $OUT/r/check.txt
grep -h "FAIL" $OUT/r/gpu-cases*.log | head -20
timeout 75 python3 bench/compare.py --pass bwd --dirs cur=carry/b-cur,new=carry/b-new --seqlens 4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
