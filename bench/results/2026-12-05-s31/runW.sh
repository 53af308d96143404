#!/usr/bin/env bash
# Session 31's call W: every forward variant (bench/variants.py's list plus the
# document masks, sorted and shuffled) next to FlexAttention (peer_flex.py's
# nine, flex_extra.py's two) at d = 128, N = 8k and 16k, in one call.
# Prepare: rm -rf carry-W && mkdir carry-W && cp ../shared/tools/peer_flex.py carry-W/ &&
#   bash bench/compile-variants.sh carry-W/v
# On the device: rm -rf carry && mv carry-W carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/variants.py --ptx-dir carry/v --variants dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,sliding_window_softcap,relative_bias_table,document,document_shuffled --json $OUT/r/tilec.json > $OUT/r/tilec.txt 2>&1; echo "tilec rc $? $(( $(date +%s)-t0 ))s"
timeout 220 python3 carry/peer_flex.py --seqlens 8192,16384 --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 bench/flex_extra.py --json $OUT/r/flex-extra.json > $OUT/r/flex-extra.txt 2>&1; echo "flex-extra rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/tilec.txt $OUT/r/flex.txt $OUT/r/flex-extra.txt | grep -v "^#"
