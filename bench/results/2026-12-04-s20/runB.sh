#!/usr/bin/env bash
# session 20 call B: document forward d = 128 with 64-key blocks (spill-free with the
# pipelined loop) against 128-key blocks (48 spilled bytes), alternating.
mkdir -p $OUT/r
t0=$(date +%s)
V=document,document_shuffled
for rep in 1 2; do
  for c in ov ov64 nov64 nov; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s20/var-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4; done
cd $OUT && tar czf r.tgz r && rm -rf r
