#!/usr/bin/env bash
# session 27 call C (session 25 runC, not run there: no device lent).
# Session 25 call C: head dims 96, 192 and (192, 128) forward, dense and causal, N = 1k-16k:
# tilec padded (pad: tiles of 128 / 256 columns) and split into column tiles (split:
# 64 + 32, 128 + 64) side by side, alternating (bench/compare.py), next to cuDNN /
# FlashAttention-2 (peer_sdpa.py at 96 and 192; bench/peer_heads.py at d_qk 192, d_v 128).
# carry/v-pad: VARIANTS="dense causal" DIMS="96 192 192v128" bash bench/compile-variants.sh carry/v-pad
# carry/v-split: the same with SETS="--set split_columns=on"; carry/v-split-n64: with
# SETS="--set split_columns=on --set block_n=64" (d = 96 on 64-key blocks; 192's default);
# carry/peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
python3 bench/compare.py --dirs pad=carry/v-pad,split=carry/v-split,split_n64=carry/v-split-n64 --variants dense,causal --dims 96,192,192v128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 carry/peer_sdpa.py --dims 96,192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/peer_heads.py --dims 192v128 --seqlens 1024,4096,16384 --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt $OUT/r/heads.txt
cd $OUT && tar czf r.tgz r && rm -rf r
