#!/usr/bin/env bash
# session 24 call E: wgmma's A row offset from a lane-0 shuffle (HEAD c619e93): sm_90a cases of
# the changed kernels (forward d = 128/256, dK/dV, dQ) with sanitizers; forward and backward
# base vs new, alternating; peer_sdpa.py forward.
# carry/cases.tgz: scripts/gpu-cases.sh, DEFAULTS=1, BWD=1 into DIR/gpu-cases{,-defaults,-bwd}
# keeping gpu-cases/sm90a_* without matmul|mma_sync|row_groups|d64|a_in_shared|stages|general
# (+ tilegpu/), gpu-cases-defaults/sm90a_d256*, gpu-cases-bwd/sm90a_bwd_dkdv_{causal_d128,
# causal_d64,d128,d64,gqa3,gqa_d128,empty,ragged,causal_ragged}*, sm90a_bwd_dq_{causal,d128,ragged}*.
# carry/v-base: flash_attention_fwd{,_causal}-d{128,256}.ptx by session 23's tilec (d = 256 with
# --set overlap=on: byte-identical to 5cb61b6's default); carry/v-new: this tree's defaults.
# carry/b-base, carry/b-new: bench/compile-bwd.sh by the same two compilers.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/gpu-cases*.log; do echo "$(basename $f): $(tail -1 $f)"; done
grep -h "FAIL\|mismatch" $OUT/r/gpu-cases*.log | head -20
echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
python3 bench/compare.py --dirs base=carry/v-base,new=carry/v-new --variants dense,causal --dims 128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
python3 bench/compare.py --pass bwd --dirs base=carry/b-base,new=carry/b-new --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt $OUT/r/bwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
