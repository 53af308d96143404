#!/usr/bin/env bash
# Session 47's call F (carry-E from make-carry-E.sh, and session 37's
# cudnn_only.py): where the d = 256 forward's time goes at N = 1k (0.89-0.91x
# cuDNN dense, 76 % of its own 16k speed where cuDNN keeps 94 %). ncu on one
# launch each: the default (one program a tile) with the full set and
# warp-state samples by SASS instruction, the persistent one (O staged in Q's
# slot), and cuDNN's kernel (speed of light, launch, occupancy, scheduler and
# warp-state sections). Outputs: details CSVs, the stall summaries
# (bench/ncu_source.py), in $OUT/r.tgz.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for k in d256 d256p; do
  timeout 120 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd \
    --launch-skip 4 --launch-count 1 -o $OUT/r/$k -f python3 bench/variants.py --ptx-dir carry-E/$k \
    --variants dense --dims 256 --seqlens 1024 > $OUT/r/ncu-$k.txt 2>&1
  echo "ncu $k rc $? $(elapsed)"
  $NCU --import $OUT/r/$k.ncu-rep --page source --csv --print-source sass > $OUT/r/source-$k.csv 2>&1
  $NCU --import $OUT/r/$k.ncu-rep --page details --csv > $OUT/r/details-$k.csv 2>&1
  python3 bench/ncu_source.py $OUT/r/source-$k.csv --top 30 > $OUT/r/stalls-$k.txt 2>&1
  rm -f $OUT/r/$k.ncu-rep; gzip $OUT/r/source-$k.csv
done
timeout 100 $NCU --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis \
  --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
  --section MemoryWorkloadAnalysis --kernel-name regex:"sdpa|fmha|attn|cudnn|fprop" --launch-skip 4 \
  --launch-count 1 -o $OUT/r/cudnn -f python3 bench/results/2026-12-06-s37/cudnn_only.py 1024 256 dense \
  > $OUT/r/ncu-cudnn.txt 2>&1
echo "ncu cudnn rc $? $(elapsed)"
$NCU --import $OUT/r/cudnn.ncu-rep --page details --csv > $OUT/r/details-cudnn.csv 2>&1
rm -f $OUT/r/cudnn.ncu-rep
for f in $OUT/r/details*.csv; do
  echo "== $f"
  grep -E '"(Duration|Elapsed Cycles|SM Active Cycles|Compute \(SM\) Throughput|SM Busy|Issue Slots Busy|L2 Cache Throughput|DRAM Throughput|Registers Per Thread|Grid Size|Block Size|Cluster Size|Dynamic Shared Memory Per Block|No Eligible|One or More Eligible|Warp Cycles Per Issued Instruction)"' \
    $f | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | head -20
done
grep -h "Kernel Name\|sdpa\|fprop" $OUT/r/details-cudnn.csv | head -2 | cut -c1-300
head -40 $OUT/r/stalls-d256.txt
head -25 $OUT/r/stalls-d256p.txt
cd $OUT && tar czf r.tgz r && rm -rf r
