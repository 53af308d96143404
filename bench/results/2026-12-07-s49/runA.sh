#!/usr/bin/env bash
# Session 49's call A (carry-O from session 48's make-carry-O.sh, carry-A
# from make-carry-A.sh): the d = 128 backward: the
# defaults, dq_order after_dk and dot_before_dk, three ring slots, and
# carry_dk.py's dK wgmma carried across the back edge (its GPU cases
# first, racecheck), beside the peers; last, where the fused kernel's warps wait (ncu, warp-state
# samples by SASS instruction, N = 4k dense); then, if the call has time
# left, session 48's call O (runO.sh: (192, 128) cases and A/B, the
# forward grid against cuDNN).
T=$(date +%s) # the call's start: ncu runs only if time is left
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
mkdir -p /tmp/s49 && tar xzf carry-A/cases.tgz -C /tmp/s49
run_cases /tmp/s49/c $OUT/r
sanitize racecheck /tmp/s49/c $OUT/r
PEER=carry-A/peer_sdpa.py
compare_bwd bwd 300 def=carry-A/bwd,after=carry-A/after_dk,dot=carry-A/dot_before_dk,st3=carry-A/st3,carry=carry-A/carry,carry3=carry-A/carry3
peers bwd 128 90 peers-bwd
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
k=bwd128
[ $(( $(date +%s) - T )) -lt 300 ] && timeout 120 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_bwd_fused \
  --launch-skip 2 --launch-count 1 -o $OUT/r/$k -f build-gpu/bin/tilec-bench --pass=bwd \
  --ptx-dir=carry-A/bwd --seqlens=4096 --filter=flash_attention_bwd_dkdv_d128 > $OUT/r/ncu-$k.txt 2>&1
echo "ncu $k rc $? $(elapsed)"
$NCU --import $OUT/r/$k.ncu-rep --page source --csv --print-source sass > $OUT/r/source-$k.csv 2>&1
$NCU --import $OUT/r/$k.ncu-rep --page details --csv > $OUT/r/details-$k.csv 2>&1
python3 bench/ncu_source.py $OUT/r/source-$k.csv --top 40 > $OUT/r/stalls-$k.txt 2>&1
rm -f $OUT/r/$k.ncu-rep; gzip $OUT/r/source-$k.csv
grep -E '"(Duration|Elapsed Cycles|SM Active Cycles|Compute \(SM\) Throughput|Issue Slots Busy|Registers Per Thread|Grid Size|Block Size|No Eligible|Warp Cycles Per Issued Instruction)"' \
  $OUT/r/details-$k.csv | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | head -14
head -45 $OUT/r/stalls-$k.txt
(cd $OUT && tar czf r.tgz r && rm -rf r)
# Session 48's call O last, where time is left (its own r.tgz as rO.tgz).
if [ $(( $(date +%s) - T )) -lt 300 ]; then
  mv $OUT/r.tgz $OUT/rA.tgz
  bash bench/results/2026-12-07-s48/runO.sh
  mv $OUT/r.tgz $OUT/rO.tgz
fi
