#!/usr/bin/env bash
# Session 43's call D1 (make-carry-D.sh): correctness first. Session 42's
# seq_schedule=long GPU cases and the persistent fused backward's (c/p_*:
# --persistent; pc_*: with --tile-counter; plp_*: with
# dq_convert=last_program) on all programs and on 3, each launched twice;
# memcheck, racecheck and synccheck on the long cases and on three of the
# persistent ones; the Python package's long-forward test.
# On the device: rm -rf carry && mv carry-D carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c && tar xzf carry/cases.tgz -C /tmp/c
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases /tmp/c/c $OUT/r
mkdir -p /tmp/long /tmp/one && mv /tmp/c/c/sm90a_long_* /tmp/long/
cp -r /tmp/c/c/p_fused_causal_d64_multi /tmp/c/c/pc_fused_d64_multi /tmp/c/c/plp_fused_gqa3 /tmp/one/
for tool in memcheck racecheck synccheck; do
  sanitize $tool /tmp/long $OUT/r; mv $OUT/r/$tool.txt $OUT/r/$tool-long.txt
  sanitize $tool /tmp/one $OUT/r
done
echo "checks $(( $(date +%s)-t0 ))s"
(cd python && TILEC_TEST_PTX_DIR=../carry/torch-ptx timeout 90 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_long_sequences_forward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK|long" | tail -20)
echo "done $(( $(date +%s)-t0 ))s"
cd $OUT && tar czf r.tgz r && rm -rf r
