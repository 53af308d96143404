#!/usr/bin/env bash
# session 20 call F: float +, -, * contracted (fma) in the DSL (ct) vs not (base): the d = 128
# forward of dense, causal, ALiBi and soft-capping, alternating, next to FlexAttention.
mkdir -p $OUT/r
t0=$(date +%s)
V=dense,causal,alibi,softcap
for rep in 1 2; do
  for c in base ct; do
    timeout 80 python3 bench/variants.py --ptx-dir carry/s20/v-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 120 python3 carry/peer_flex.py --seqlens 8192,16384 --variants alibi --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4,6; done; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
