#!/usr/bin/env bash
# Session 37's call C: the causal d = 128 N = 1k spread — three processes,
# each timing the default kernel on six fresh allocations, then cuDNN
# likewise (spread.py); nvidia-smi clocks sampled meanwhile.
# Carry: carry-C (the d = 128 causal default from compile-variants.sh).
mkdir -p $OUT/r
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 200 > $OUT/r/clocks.csv &
smi=$!
for p in 1 2 3; do
  timeout 60 python3 bench/results/2026-12-06-s37/spread.py --ptx carry/head/flash_attention_fwd_causal-d128.ptx --causal --rounds 6 2>&1 | tee $OUT/r/spread$p.txt
done
timeout 60 python3 bench/results/2026-12-06-s37/spread.py --ptx carry/head/flash_attention_fwd-d128.ptx --rounds 4 2>&1 | tee $OUT/r/spread-dense.txt
kill $smi
awk -F, 'NR>1 {print $2}' $OUT/r/clocks.csv | sort | uniq -c | sort -rn | head -5
cd $OUT && tar czf r.tgz r && rm -rf r
