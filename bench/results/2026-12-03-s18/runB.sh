#!/usr/bin/env bash
# session 18 call B: the variants next to FlexAttention (issue 14): the default forward kernels and --persistent ones
# (window, ALiBi, prefix-LM, causal, document), d = 128, N = 8k and 16k.
mkdir -p $OUT/r
t0=$(date +%s)
V=sliding_window,alibi,prefix_lm,causal,document,document_shuffled
timeout 150 python3 bench/variants.py --ptx-dir carry/s18/var-default --variants dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,sliding_window_softcap,document,document_shuffled --seqlens 8192,16384 --json $OUT/r/var-default.json > $OUT/r/var-default.txt 2>&1; echo "default rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 bench/variants.py --ptx-dir carry/s18/var-pers --variants $V --seqlens 8192,16384 --json $OUT/r/var-pers.json > $OUT/r/var-pers.txt 2>&1; echo "pers rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 carry/peer_flex.py --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/var-default.txt $OUT/r/var-pers.txt $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
