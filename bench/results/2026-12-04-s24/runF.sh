#!/usr/bin/env bash
# session 24 call F: call E's d = 128 forward rows again (base vs new, 3 runs each, alternating),
# to tell the shuffle's effect at d = 128 from the noise. Carry: carry/v-base carry/v-new (call E's).
mkdir -p $OUT/r
python3 bench/compare.py --dirs base=carry/v-base,new=carry/v-new --variants causal,dense --dims 128,256 --seqlens 4096,16384 --reps 3 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $?"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
