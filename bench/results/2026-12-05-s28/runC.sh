#!/usr/bin/env bash
# Session 28's call C (prepared, not run). Prepare with
# `bash bench/results/2026-12-05-s28/prepare.sh C`; see its header.
mkdir -p $OUT/r
t0=$(date +%s)
timeout 200 python3 bench/variants.py --ptx-dir carry/v-all --variants dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,document,document_shuffled,sliding_window_softcap,relative_bias_table --seqlens 8192,16384 --json $OUT/r/tilec.json > $OUT/r/tilec.txt 2>&1; echo "tilec rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 carry/peer_flex.py --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/flex_extra.py --seqlens 8192,16384 --json $OUT/r/flex-extra.json > $OUT/r/flex-extra.txt 2>&1; echo "flex-extra rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/tilec.txt $OUT/r/flex.txt $OUT/r/flex-extra.txt | grep -v "^#"
cd $OUT && tar czf r.tgz r && rm -rf r
