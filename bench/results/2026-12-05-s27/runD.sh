#!/usr/bin/env bash
# session 27 call D (session 25 runD, not run there: no device lent).
# Session 25 call D: the Python package's GPU tests with head dims 96, 40 and (192, 128)
# (test_head_dims: forward and gradients against f64 autograd, packed batches; v's head dim
# checked) beside the standing ones.
# carry/torch-ptx: DIMS="64 128 96 40 192v128" bash scripts/compile-torch-kernels.sh carry/torch-ptx
mkdir -p $OUT/r
t0=$(date +%s)
TILEC_TEST_PTX_DIR=carry/torch-ptx timeout 500 python3 -m unittest discover -s python/tests -v > $OUT/r/python.txt 2>&1; echo "python rc $? $(( $(date +%s)-t0 ))s"
grep -E "^(test_|Ran|OK|FAILED)|ERROR|FAIL:" $OUT/r/python.txt | head -40
cd $OUT && tar czf r.tgz r && rm -rf r
