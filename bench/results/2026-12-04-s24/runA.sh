#!/usr/bin/env bash
# session 24 call A: session 23's runF — the landed compiler (HEAD 5ab6123) on the
# sm_90a cases of the kernels it changed, sanitizers — and its forward at d = 128/256
# against the same compiler's --persistent kernels and the peers.
# carry/cases.tgz: scripts/gpu-cases.sh (standard), DEFAULTS=1, BWD=1, INFER=1 into
# DIR/gpu-cases{,-defaults,-bwd,-infer}, keeping gpu-cases/sm90a_* without *matmul*,
# *mma_sync*, *row_groups*, *d64* (+ tilegpu/); gpu-cases-defaults/sm90a_{d256,ov_d256,ov_pp}_*
# without alibi/sliding_window/softcap; gpu-cases-bwd/sm90a_bwd_dkdv_{causal,gqa,prefix_lm,
# d64,d128,ragged,empty,tiny}*, sm90a_bwd_dq_causal*, sm90a_bwd_prep*; gpu-cases-infer/sm90a_varlen_*.
# carry/v-fin, carry/v-pers: flash_attention_fwd{,_causal}-d{128,256}.ptx from HEAD, without
# and with --persistent. Carry: carry/cases.tgz carry/v-fin carry/v-pers carry/peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --dirs fin=carry/v-fin,pers=carry/v-pers --variants dense,causal --dims 128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
timeout 90 python3 carry/peer_sdpa.py --dims 128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
