#!/usr/bin/env bash
# Session 43's call E cut to what little device time was left (carry by
# make-carry-E.sh): the Python package's fused-backward and long-forward
# tests with this session's defaults, then the d = 128 backward with the
# fused kernel one program a tile (def) and persistent with tiles from a
# counter (ctr), two alternating runs, cuDNN's backward in the same call.
# On the device: rm -rf carry && mv carry-E carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
(cd python && TILEC_TEST_PTX_DIR=../carry/torch-ptx timeout 100 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_fused_backward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK" | tail -20)
echo "python tests $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/compare.py --pass bwd --dirs def=carry/b-def,ctr=carry/b-ctr \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
timeout 60 python3 carry/peer_sdpa.py --pass bwd --dims 128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
