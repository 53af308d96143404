#!/usr/bin/env bash
# Session 51's call D (carry-D from make-carry-D.sh): GPU cases of the new
# default (prefix-LM, f16, GQA 5) and of consumer_barriers=one on all
# programs and on 3, racecheck and synccheck on the latter; the d = 128 backward,
# at_use (old) against lse_top (the new default), arr (arrive_staging.py)
# and one (consumer_barriers=one), two reps, then cuDNN's backward
# (peer_sdpa.py --pass bwd) in the same call; then the d = 64 dense forward,
# default and seq_schedule=long, beside cuDNN in turn (ab_cudnn.py); last,
# if the call has time left, where the new default's warps wait (ncu,
# warp-state samples by SASS instruction, fused dense N = 4k).
T=$(date +%s)
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
mkdir -p /tmp/s51 && tar xzf carry-D/cases.tgz -C /tmp/s51
run_cases /tmp/s51/d $OUT/r
mkdir -p /tmp/s51/one /tmp/s51/sync && cp -r /tmp/s51/d/one_* /tmp/s51/one/ &&
  cp -r /tmp/s51/d/one_ragged /tmp/s51/d/one_gqa3 /tmp/s51/sync/
sanitize racecheck /tmp/s51/one $OUT/r
sanitize synccheck /tmp/s51/sync $OUT/r
PEER=carry-D/peer_sdpa.py
compare_bwd bwd 260 old=carry-D/old,lse=carry-D/lse,arr=carry-D/arr,one=carry-D/one
peers bwd 128 90 peers-bwd
timeout 120 python3 bench/ab_cudnn.py --ptx-dir def=carry-D/f64def --ptx-dir long=carry-D/f64long \
  --dims 64 --variants dense --json $OUT/r/ab64.json > $OUT/r/ab64.txt 2>&1
echo "ab64 rc $? $(elapsed)"; cat $OUT/r/ab64.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
k=bwd128
[ $(( $(date +%s) - T )) -lt 300 ] && timeout 120 $NCU --clock-control none --set full --import-source no \
  --kernel-name regex:flash_attention_bwd_fused --launch-skip 2 --launch-count 1 -o $OUT/r/$k -f \
  build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry-D/lse --seqlens=4096 \
  --filter=flash_attention_bwd_dkdv_d128 > $OUT/r/ncu-$k.txt 2>&1
echo "ncu $k rc $? $(elapsed)"
$NCU --import $OUT/r/$k.ncu-rep --page source --csv --print-source sass > $OUT/r/source-$k.csv 2>&1
python3 bench/ncu_source.py $OUT/r/source-$k.csv --top 40 > $OUT/r/stalls-$k.txt 2>&1
head -50 $OUT/r/stalls-$k.txt
rm -f $OUT/r/$k.ncu-rep; gzip $OUT/r/source-$k.csv
cd $OUT && tar czf r.tgz r && rm -rf r
