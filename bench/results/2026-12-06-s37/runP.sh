#!/usr/bin/env bash
# Session 37's call P: the Python launch path with launches prepared once
# (python/tilec/driver.py) — the package's GPU tests, then hostcost.py
# (host time a call and TFLOP/s, Kernel() against a launch prepared by
# hand and cuDNN) at causal / dense d = 128, N = 1k; modules.py in three
# processes (the 1k spread: the same PTX loaded as four modules in one
# process, timed interleaved; with the tile counter and in the static order).
# Carry: carry-P2 (make-carry-P.sh).
# On the device: rm -rf carry && mv carry-P2 carry first.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
t0=$(date +%s)
TILEC_TEST_PTX_DIR=carry/torch-ptx timeout 120 python3 -m unittest discover -s python/tests 2>&1 | tail -4; echo "tests $(( $(date +%s)-t0 ))s"
timeout 40 python3 bench/results/2026-12-06-s37/hostcost.py --ptx carry/head/flash_attention_fwd_causal-d128.ptx --causal --n 1024 2>&1 | tail -1
timeout 40 python3 bench/results/2026-12-06-s37/hostcost.py --ptx carry/head/flash_attention_fwd-d128.ptx --n 1024 2>&1 | tail -1
for p in 1 2 3; do
  for dir in head static; do
    echo "# $dir, process $p"
    timeout 40 python3 bench/results/2026-12-06-s37/modules.py --ptx carry/$dir/flash_attention_fwd_causal-d128.ptx --causal 2>&1 | tail -5
  done
done
echo "done $(( $(date +%s)-t0 ))s"
