#!/usr/bin/env bash
# session 20 call D: document forward d = 128, three alternating rounds: main / call A's pipelined
# kernel (ov, 48 spilled bytes) / call C's (br: the seq_k check behind a uniform branch) / nb (the
# seq_k check as key offset < keys left, no branch; spill-free). Flex: calls A and C.
mkdir -p $OUT/r
t0=$(date +%s)
V=document,document_shuffled
for rep in 1 2 3; do
  for c in main ov br nb; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s20/var-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4,7; done
cd $OUT && tar czf r.tgz r && rm -rf r
