#!/usr/bin/env bash
# session 19 call E: call D's differences again, alternating new and main three times: window, prefix-LM, softcap (d = 128, 8k, 16k).
mkdir -p $OUT/r
for i in 1 2 3; do for c in new main; do
  d=carry/s19/var-new; [ $c = main ] && d=carry/s18/var-default
  timeout 40 python3 bench/variants.py --ptx-dir $d --variants sliding_window,prefix_lm,softcap,dense --seqlens 8192,16384 --json $OUT/r/var-$c-$i.json > $OUT/r/var-$c-$i.txt 2>&1
  grep -v "^#\|^variant" $OUT/r/var-$c-$i.txt | awk -v c=$c -v i=$i '{print c, i, $1, $3, $4}'
done; done
cd $OUT && tar czf r.tgz r && rm -rf r
