#!/usr/bin/env bash
# session 22 call K: backward cases (sm_90a subset, dK/dV and dQ now leave by TMA stores)
# with sanitizers, then main vs TMA-store epilogue (dense/causal, d 64/128/256, 1k/4k/16k),
# alternating, next to peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/c2.tgz && rm -rf gpu-cases gpu-cases-defaults
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
tail -1 $OUT/r/gpu-cases-bwd.log; grep -c "exit 0" $OUT/r/memcheck.log; grep -c "exit [1-9]" $OUT/r/memcheck.log
python3 bench/compare.py --dirs main=carry/v-main,tma=carry/v-tma --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt; grep -v "^#" $OUT/r/sdpa.txt
