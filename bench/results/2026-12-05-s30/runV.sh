#!/usr/bin/env bash
# Session 30's call V (see prepareV.sh). On the device: rm -rf carry && mv carry-V carry first.
mkdir -p $OUT/r
t0=$(date +%s)
for v in new old pers; do
  timeout 100 python3 bench/variants.py --ptx-dir carry/v-$v --dims 64,128 --variants alibi --seqlens 8192,16384 --json $OUT/r/alibi-$v.json > $OUT/r/alibi-$v.txt 2>&1; echo "alibi $v rc $? $(( $(date +%s)-t0 ))s"
done
timeout 60 python3 bench/variants.py --ptx-dir carry/v-pers --dims 128 --variants sliding_window --seqlens 8192,16384 --json $OUT/r/window-pers.json > $OUT/r/window-pers.txt 2>&1; echo "window pers rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 bench/variants.py --ptx-dir carry/v-new --dims 128 --variants sliding_window,sliding_window_softcap,relative_bias_table --seqlens 8192,16384 --json $OUT/r/extra.json > $OUT/r/extra.txt 2>&1; echo "extra rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 carry/peer_flex.py --variants alibi,sliding_window --dims 64,128 --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/flex_extra.py --dims 128 --seqlens 8192,16384 --json $OUT/r/flex-extra.json > $OUT/r/flex-extra.txt 2>&1; echo "flex-extra rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/alibi-new.txt $OUT/r/alibi-old.txt $OUT/r/alibi-pers.txt $OUT/r/window-pers.txt $OUT/r/extra.txt $OUT/r/flex.txt $OUT/r/flex-extra.txt | grep -v "^#"
