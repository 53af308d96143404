#!/usr/bin/env bash
# Session 43's call E (make-carry-E.sh): the Python package's fused-backward
# and long-forward tests with this session's defaults; the d = 128 backward with the fused
# kernel one program a tile, persistent (static order) and persistent with
# the tile counter, two alternating runs, cuDNN's backward in the same
# call; then session 42's call B parts: the d = 64 GQA 4, soft-capping and
# ALiBi forwards on 256-row tiles against their defaults, and causal
# d = 128 at N = 1k, B = 64 and 16, with the counter and in the static order.
# On the device: rm -rf carry && mv carry-E carry first.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
# The package's fused backward with the new causal d = 64 default (and
# "auto" taking it at every length), the launcher's options.
(cd python && TILEC_TEST_PTX_DIR=../carry/torch-ptx timeout 120 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_fused_backward \
  tests.test_attention_gpu.AttentionOnGpu.test_long_sequences_forward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK" | tail -20)
echo "python tests $(( $(date +%s)-t0 ))s"
timeout 200 python3 bench/compare.py --pass bwd --dirs def=carry/b-def,pers=carry/b-pers,ctr=carry/b-ctr \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --pass bwd --dims 128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
timeout 150 python3 bench/compare.py --dirs def=carry/vdef,m256=carry/v256 \
  --variants gqa,softcap,alibi --dims 64 --seqlens 4096,8192,16384 --reps 2 \
  --out $OUT/r/v > $OUT/r/v.txt 2>&1
echo "variants rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/v.txt
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
grep -hv "^#" $OUT/r/sdpa-c128.txt
cd $OUT && tar czf r.tgz r && rm -rf r
