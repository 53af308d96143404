#!/usr/bin/env bash
# Session 37's call E: why the d = 128 forward trails cuDNN at N = 1k —
# ncu (full set, warp-state sampling by SASS instruction) on one launch of
# the dense default at N = 1k and at 16k, and cuDNN's kernel at 1k
# (speed of light, compute workload, scheduler, occupancy sections).
# Carry: carry-C (compile-variants.sh, d = 128 dense and causal).
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for n in 1024 16384; do
  timeout 150 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/d$n -f python3 bench/variants.py --ptx-dir carry/head --variants dense --dims 128 --seqlens $n > $OUT/r/ncu$n.txt 2>&1; echo "ncu $n rc $? $(( $(date +%s)-t0 ))s"
  $NCU --import $OUT/r/d$n.ncu-rep --page source --csv --print-source sass > $OUT/r/source$n.csv 2>&1
  $NCU --import $OUT/r/d$n.ncu-rep --page details --csv > $OUT/r/details$n.csv 2>&1
  rm -f $OUT/r/d$n.ncu-rep; gzip $OUT/r/source$n.csv
done
timeout 120 $NCU --clock-control none --section SpeedOfLight --section ComputeWorkloadAnalysis --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats --kernel-name regex:"sdpa|fmha|attn|cudnn|fprop" --launch-skip 4 --launch-count 1 -o $OUT/r/cudnn -f python3 bench/results/2026-12-06-s37/cudnn_only.py 1024 128 dense > $OUT/r/ncu-cudnn.txt 2>&1; echo "ncu cudnn rc $? $(( $(date +%s)-t0 ))s"
$NCU --import $OUT/r/cudnn.ncu-rep --page details --csv > $OUT/r/details-cudnn.csv 2>&1; rm -f $OUT/r/cudnn.ncu-rep
tail -3 $OUT/r/ncu-cudnn.txt
for f in $OUT/r/details*.csv; do echo "== $f"; grep -E '"(Duration|Compute \(SM\) Throughput|SM Busy|Issue Slots Busy|Registers Per Thread|Achieved Occupancy|No Eligible|Grid Size|Block Size)"' $f | awk -F'","' '{print $(NF-2), $(NF-1), $NF}' | head -12; done
cd $OUT && tar czf r.tgz r && rm -rf r
