#!/usr/bin/env bash
# session 21 call A: score modifiers built with fma contraction (ct), ALiBi's
# positions as floats (ctA: slope * (j - i) with j, i floats; ctB: slope * j -
# slope * i) vs main (base): the d = 128 forward next to FlexAttention, alternating.
mkdir -p $OUT/r
t0=$(date +%s)
for rep in 1 2; do
  for c in base ct ctA ctB; do
    V=alibi; [ $c = ct ] || [ $c = base ] && V=dense,alibi,softcap,sliding_window_softcap
    timeout 100 python3 bench/variants.py --ptx-dir carry/s21/v-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 150 python3 carry/peer_flex.py --seqlens 8192,16384 --variants alibi,softcap --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4,6; done; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
