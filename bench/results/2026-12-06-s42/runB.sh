#!/usr/bin/env bash
# Session 42's call B (make-carry-B.sh): seq_schedule=long verified and
# timed — call C's parts first (runC.sh: the long cases on all programs and
# on 3, each launched twice; the d = 64 dense forward, default and long,
# N = 1k-16k, next to cuDNN; the Python package's long-forward test;
# memcheck, racecheck, synccheck), then the d = 64 GQA, soft-capping and
# ALiBi forwards on 256-row tiles and causal d = 128 at N = 1k, B = 64.
# On the device: rm -rf carry && mv carry-B carry first.
bash bench/results/2026-12-06-s42/runC.sh
. bench/results/lib.sh
t0=$(date +%s)
# The d = 64 variants without a mask (GQA 4, soft-capping, ALiBi) on
# 256-row tiles against their defaults, two alternating runs.
timeout 200 python3 bench/compare.py --dirs def=carry/vdef,m256=carry/v256 \
  --variants gqa,softcap,alibi --dims 64 --seqlens 4096,8192,16384 --reps 2 \
  --out $OUT/r/v > $OUT/r/v.txt 2>&1
echo "variants rc $? $(( $(date +%s)-t0 ))s"
# Causal d = 128 at N = 1k, B = 64 (call A: 328 TFLOP/s, cuDNN 460) and
# B = 16: the counter's default and the static order, two processes each.
for rep in 1 2; do
  for dir in fc128 fc128s; do
    for T in 65536 16384; do
      timeout 60 python3 bench/variants.py --ptx-dir carry/$dir --variants causal --dims 128 \
        --seqlens 1024 --tokens $T > $OUT/r/c128-$dir-$T-$rep.txt 2>&1
      echo "$dir tokens $T rep $rep: $(grep -v '^#' $OUT/r/c128-$dir-$T-$rep.txt | tail -1)"
    done
  done
done
timeout 60 python3 carry/peer_sdpa.py --dims 128 --seqlens 1024 --tokens 65536 > $OUT/r/sdpa-c128.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/v.txt; grep -hv "^#" $OUT/r/sdpa-c128.txt
cd $OUT && tar czf r.tgz r && rm -rf r
