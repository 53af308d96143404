#!/usr/bin/env bash
# Session 42's call B (make-carry-B.sh): seq_schedule=long verified and
# timed. The long cases (d = 64 dense on 256-row tiles: ragged, f16 with B
# and H > 1, tiny, queries past the keys) on all programs and on 3, each
# launched twice; memcheck, racecheck and synccheck on the long
# cases; the Python package's GPU tests (the long forward on ragged shapes,
# "auto" at 4096); the d = 64 dense forward, default and long, N = 1k-16k,
# three alternating runs, cuDNN in the same call; the d = 64 GQA, soft-capping
# and ALiBi forwards on 256-row tiles; causal d = 128 at N = 1k, B = 64.
# On the device: rm -rf carry && mv carry-B carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
run_cases carry/long $OUT/r
sanitize memcheck carry/long $OUT/r
sanitize racecheck carry/long $OUT/r
sanitize synccheck carry/long $OUT/r
echo "cases $(( $(date +%s)-t0 ))s"
(cd python && TILEC_TEST_PTX_DIR=../carry/torch-ptx timeout 200 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_long_sequences_forward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK|long" | tail -40)
echo "python tests $(( $(date +%s)-t0 ))s"
S="1024,2048,4096,8192,16384"
timeout 200 python3 bench/compare.py --dirs def=carry/fdef,long=carry/flong \
  --variants dense --dims 64 --seqlens $S --reps 3 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 64 --seqlens $S --json $OUT/r/sdpa.json \
  > $OUT/r/sdpa.txt 2>&1
echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt; grep -v "^#" $OUT/r/sdpa.txt
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
