#!/usr/bin/env bash
# Session 37's call B: the d = 64 forward warp-specialized (one program a
# tile, persistent, persistent with counter + two Q slots) against the
# default; the causal d = 128 forward with Q on two slots against the
# default, four alternating runs (the 1k rows' spread within one call);
# cuDNN at d = 64 and 128 in the same call.
# Carry: carry-B (make-carry-B.sh). On the device: rm -rf carry && mv carry-B carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader; date -u
S="1024,2048,4096,16384"
timeout 150 python3 bench/compare.py --dirs head=carry/head,ws=carry/ws,wsp=carry/wsp,wspc=carry/wspc --variants dense,causal --dims 64 --seqlens $S --reps 2 --out $OUT/r/b64 > $OUT/r/b64.txt 2>&1; echo "b64 rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/compare.py --dirs head=carry/head128,ps=carry/ps128 --variants causal --dims 128 --seqlens 1024,2048,4096,8192,16384 --reps 4 --out $OUT/r/b128 > $OUT/r/b128.txt 2>&1; echo "b128 rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 64,128 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b64.txt $OUT/r/b128.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
