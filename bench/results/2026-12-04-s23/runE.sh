#!/usr/bin/env bash
# session 23 call E: why the d = 128 forward's loop got slower with the producer's Q and
# last-V loads: SASS of the variants (x1: no "empty" barriers for the one-tile streams;
# x2: x1 with only Q from the producer; x3: no one-tile streams, with the new barrier
# rules), then all timed alternately at d = 128 (dense/causal, 1k/4k/16k).
mkdir -p $OUT/r/s
t0=$(date +%s)
for s in base new2 x1 x2 x3; do
  ptxas -arch=sm_90a carry/v-$s/flash_attention_fwd-d128.ptx -o /tmp/$s.cubin && cuobjdump -sass /tmp/$s.cubin > $OUT/r/s/$s.sass
done
python3 bench/compare.py --dirs base=carry/v-base,new2=carry/v-new2,x1=carry/v-x1,x2=carry/v-x2,x3=carry/v-x3 --variants dense,causal --dims 128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt
cd $OUT && tar czf r.tgz r && rm -rf r
