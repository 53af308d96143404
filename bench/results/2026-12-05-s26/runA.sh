#!/usr/bin/env bash
# session 26 call A (not run: no device lent in session 26): the fused backward in
# FlashAttention-3's shape on sm_90a at d = 64 (dQ per step by wgmma on two column blocks, dSᵀ
# stored by stmatrix and read transposed from shared memory, added into dq_acc by TMA
# reductions) -- its first GPU run.
# 1. correctness: the BWD=1 cases of the fused kernel and the dQ convert (ragged, empty rows,
#    several key blocks at d = 64 and 128, GQA 3), sanitizers (gpu-check.sh's lists);
# 2. speed: this tree's backward set (prep + dK/dV + dQ, and prep + fused + convert) next to
#    peer_sdpa.py --pass bwd in the same call.
# Prepare (CPU machine):
#   BWD=1 bash scripts/gpu-cases.sh /tmp/c/gpu-cases-bwd
#   (cd /tmp/c && find gpu-cases-bwd -maxdepth 1 -mindepth 1 ! -name 'sm90a_bwd_fused*' \
#      ! -name 'sm90a_bwd_dq_convert*' ! -name 'bwd_fused*' -exec rm -rf {} +)
#   mkdir -p carry && tar czf carry/cases.tgz -C /tmp/c gpu-cases-bwd
#   bash bench/compile-bwd.sh carry/b-cur && cp ../shared/tools/peer_sdpa.py carry/
# Run: device run with carry ["carry"], command "bash bench/results/2026-12-05-s26/runA.sh".
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
grep -B3 "exit [1-9]" $OUT/r/memcheck.log | head -30
python3 bench/compare.py --pass bwd --dirs cur=carry/b-cur --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
