#!/usr/bin/env bash
# Session 42's call C (carry-B from make-carry-B.sh; also call B's first
# part), most needed first: the seq_schedule=long
# cases on all programs and on 3, each launched twice; the d = 64 dense
# forward, default and long, N = 1k-16k, two alternating runs, cuDNN in the
# same call; the Python package's long-forward test; memcheck, racecheck
# and synccheck on the long cases.
# On the device: rm -rf carry && mv carry-B carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_run_case; echo "build $(( $(date +%s)-t0 ))s"
run_cases carry/long $OUT/r
S="1024,2048,4096,8192,16384"
timeout 120 python3 bench/compare.py --dirs def=carry/fdef,long=carry/flong \
  --variants dense --dims 64 --seqlens $S --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json \
  > $OUT/r/sdpa.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
(cd python && TILEC_TEST_PTX_DIR=../carry/torch-ptx timeout 90 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_long_sequences_forward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK|long" | tail -20)
echo "python tests $(( $(date +%s)-t0 ))s"
sanitize memcheck carry/long $OUT/r
sanitize racecheck carry/long $OUT/r
sanitize synccheck carry/long $OUT/r
echo "done $(( $(date +%s)-t0 ))s"
