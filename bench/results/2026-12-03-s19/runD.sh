#!/usr/bin/env bash
# session 19 call D: every variant's forward next to FlexAttention (issue 14), d = 128, N = 8k and 16k:
# new (epilogue stores from their own %tid.x) vs main (session 18's var-default), and the persistent window (16 bytes spilled now).
mkdir -p $OUT/r
t0=$(date +%s)
V=dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,sliding_window_softcap,document,document_shuffled
timeout 150 python3 bench/variants.py --ptx-dir carry/s19/var-new --variants $V --seqlens 8192,16384 --json $OUT/r/var-new.json > $OUT/r/var-new.txt 2>&1; echo "new rc $? $(( $(date +%s)-t0 ))s"
timeout 40 python3 bench/variants.py --ptx-dir carry/s19/var-pers --variants sliding_window --seqlens 8192,16384 --json $OUT/r/var-pers.json > $OUT/r/var-pers.txt 2>&1; echo "pers rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 carry/peer_flex.py --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/variants.py --ptx-dir carry/s18/var-default --variants $V --seqlens 8192,16384 --json $OUT/r/var-main.json > $OUT/r/var-main.txt 2>&1; echo "main rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/var-new.txt $OUT/r/var-pers.txt $OUT/r/flex.txt $OUT/r/var-main.txt
cd $OUT && tar czf r.tgz r && rm -rf r
