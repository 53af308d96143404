#!/usr/bin/env bash
# session 24 call D: the packed-batch (varlen) sm_90a cases with d = 256 overlapping by default
# (HEAD 5cb61b6), sanitizers; the first device run of `bench/compare.py --pass bwd` (one set:
# this tree's backward, bench/compile-bwd.sh carry/b-cur) beside peer_sdpa.py --pass bwd.
# carry/cases.tgz: INFER=1 scripts/gpu-cases.sh DIR/gpu-cases-infer, keeping sm90a_varlen_*.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
grep -h "d256" $OUT/r/gpu-cases*.log | head -8
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --pass bwd --dirs cur=carry/b-cur --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 120 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
