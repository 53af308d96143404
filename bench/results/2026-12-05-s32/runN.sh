#!/usr/bin/env bash
# Session 32's call N: where the d = 64 forward's time goes — ncu's pipe
# utilizations (tensor, XU = MUFU, FMA, ALU), issue slots and warp stalls on
# one launch of the dense d = 64 kernel at N = 4k (B = 4, H = 32), with every
# exp2 on MUFU (fma0) and one in four on the FMA pipes (fma4). Carry: carry-E
# (prepareE.sh). On the device: rm -rf carry && mv carry-E carry first.
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for n in 0 4; do
  timeout 150 $NCU --clock-control none --section ComputeWorkloadAnalysis --section SchedulerStats \
    --section WarpStateStats --section InstructionStats --section SpeedOfLight \
    --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/fma$n -f \
    python3 bench/variants.py --ptx-dir carry/fma$n --variants dense --dims 64 --seqlens 4096 > $OUT/r/ncu-run$n.txt 2>&1
  echo "ncu fma$n rc $? $(( $(date +%s)-t0 ))s"
  $NCU --import $OUT/r/fma$n.ncu-rep --page details --csv > $OUT/r/details$n.csv 2>&1
  $NCU --import $OUT/r/fma$n.ncu-rep --page raw --csv > $OUT/r/raw$n.csv 2>&1
  grep -E "Duration|Issue Slots Busy|Issued Warp Per Scheduler|No Eligible|Executed Ipc Active|Compute \(SM\) Throughput|Warp Cycles Per Issued|Registers Per Thread|Achieved Occupancy" $OUT/r/details$n.csv | cut -d, -f12- | head -14
done
python3 - $OUT/r/raw0.csv $OUT/r/raw4.csv <<'PY' || true
import csv, sys
for path in sys.argv[1:]:
    rows = list(csv.reader(open(path)))
    if len(rows) < 3: print(path, "no rows"); continue
    head, units, vals = rows[0], rows[1], rows[2]
    keep = [i for i, h in enumerate(head) if ("pipe" in h and "pct_of_peak_sustained_active" in h) or "issue_active" in h or "stall" in h and h.endswith(".ratio")]
    print(path)
    for i in sorted(keep, key=lambda i: -float(vals[i].replace(",", "") or 0) if vals[i].replace(",", "").replace(".", "").isdigit() else 0)[:40]:
        print(f"  {head[i]} = {vals[i]} {units[i]}")
PY
cd $OUT && tar czf r.tgz r && rm -rf r
