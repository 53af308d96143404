#!/usr/bin/env bash
# session 27 call A (HEAD ca65ae3): session 26's runA and session 24's runG in one call.
# 1. correctness: the sm_90a fused backward (d = 64 in FlashAttention-3's shape, d = 128
#    f16/GQA cases in the previous form) and dQ convert cases, and the 16 sm_90a persistent
#    cases (full grid and 2 programs), with gpu-check.sh's sanitizer lists;
# 2. speed: this tree's backward set (prep + dK/dV + dQ, and prep + fused + convert) next to
#    peer_sdpa.py --pass bwd in the same call.
# Prepare (CPU machine):
#   BWD=1 bash scripts/gpu-cases.sh /tmp/c/gpu-cases-bwd, keeping sm90a_bwd_fused* (less
#   sm90a_bwd_fused_d128_ragged: 64 MiB) and sm90a_bwd_dq_convert*;
#   PERSISTENT=1 bash scripts/gpu-cases.sh /tmp/c/gpu-cases-persistent, keeping sm90a_*;
#   tar czf carry/cases.tgz -C /tmp/c gpu-cases-bwd gpu-cases-persistent
#   bash bench/compile-bwd.sh carry/b-cur && cp ../shared/tools/peer_sdpa.py carry/
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt
python3 bench/compare.py --pass bwd --dirs cur=carry/b-cur --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
