#!/usr/bin/env bash
# Session 38's call H: the Python package's GPU tests on the kernels of the
# final defaults (the d = 128 forward with its first key block peeled,
# causal d = 112 persistent). Carry: carry-H, made by
#   bash scripts/compile-torch-kernels.sh carry-H/torch-ptx
# On the device: rm -rf carry && mv carry-H carry first.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
t0=$(date +%s)
TILEC_TEST_PTX_DIR=carry/torch-ptx timeout 150 python3 -m unittest discover -s python/tests -v 2>&1 | grep -E "ok$|FAIL|ERROR|skipped|^Ran|^OK" | tail -45; echo "tests $(( $(date +%s)-t0 ))s"
# Second part (carry-H again, made by
#   DIMS="96 40 192v128" VARIANTS="dense causal" bash scripts/compile-torch-kernels.sh carry-H/torch-ptx):
#   TILEC_TEST_PTX_DIR=carry/torch-ptx python3 -m unittest -v tests.test_attention_gpu.AttentionOnGpu.test_head_dims  (in python/)
