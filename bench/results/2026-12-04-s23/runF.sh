#!/usr/bin/env bash
# session 23 call F: the landed compiler (Q from the producer in every warp-specialized
# kernel, the last V block the consumers'): sm_90a cases of the changed kernels
# (standard forward, DEFAULTS d = 256, BWD dK/dV, INFER varlen), sanitizers; base vs fin
# forward at d = 256 (dense/causal, 1k/4k/16k, alternating) next to peer_sdpa.py.
# carry/cases.tgz (≤ ~50 MB): on the CPU machine, scripts/gpu-cases.sh (standard),
# DEFAULTS=1, BWD=1 and INFER=1 into DIR/gpu-cases{,-defaults,-bwd,-infer}; then keep the
# sm90a_ cases of the changed kernels: gpu-cases/sm90a_* and tilegpu/ without *matmul*,
# *mma_sync*, *row_groups*, *d64*; gpu-cases-defaults/sm90a_{d256,ov_d256,ov_pp}_* without
# the alibi/sliding_window/softcap ones; gpu-cases-bwd/sm90a_bwd_dkdv_* of the dense,
# causal, gqa and prefix_lm variants (+ sm90a_bwd_dq_causal*, sm90a_bwd_prep*);
# gpu-cases-infer/sm90a_varlen_*; tar czf carry/cases.tgz gpu-cases*.
# v-base / v-fin: flash_attention_fwd{,_causal}-d{128,256}.ptx from a build of db10bd5 and
# of this session's HEAD (tilec --kernel=... --arch=sm_90a --set head_dim=D --emit=ptx).
# Carry: carry/cases.tgz carry/v-base carry/v-fin carry/peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --dirs base=carry/v-base,fin=carry/v-fin --variants dense,causal --dims 128,256 --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
