#!/usr/bin/env bash
# session 21 call H: the sliding window (1024) forward at d = 128 on the persistent grid
# vs the default grid, 4 times alternating, next to FlexAttention (twice).
mkdir -p $OUT/r
t0=$(date +%s)
for rep in 1 2 3 4; do
  for c in def pers; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s21/w-$c --variants sliding_window,sliding_window_softcap --seqlens 8192,16384 --json $OUT/r/w-$c-$rep.json > $OUT/r/w-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
  [ $rep = 2 ] || [ $rep = 4 ] && { timeout 100 python3 carry/peer_flex.py --seqlens 8192,16384 --variants sliding_window --json $OUT/r/flex-$rep.json > $OUT/r/flex-$rep.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"; }
done
for f in $OUT/r/w-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4; done; grep -h sliding $OUT/r/flex-*.txt
cd $OUT && tar czf r.tgz r && rm -rf r
