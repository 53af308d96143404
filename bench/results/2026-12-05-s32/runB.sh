#!/usr/bin/env bash
# Session 32's call B: the backward kernels whose TMA rings now release
# their slots on mbarriers (dQ at d = 64 dense and causal, d = 128 dense),
# before (f202410's compiler) and after (fabbd9a), each set made by
# `bash bench/compile-bwd.sh carry-B/{before,after}` (the before set with
# fabbd9a's lib/include change reversed); then ncu's stall profile of the
# new d = 64 forward (call R's rel/) as call N took the old one.
# On the device: rm -rf carry && mv carry-B carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-bench > /dev/null 2>&1; echo "build rc $? $(( $(date +%s)-t0 ))s"
timeout 300 python3 bench/compare.py --pass bwd --dirs before=carry/before,after=carry/after --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1; echo "bwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/bwd.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
timeout 100 $NCU --clock-control none --section ComputeWorkloadAnalysis --section SchedulerStats \
  --section WarpStateStats --section SpeedOfLight \
  --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/rel -f \
  python3 bench/variants.py --ptx-dir carry/rel --variants dense --dims 64 --seqlens 4096 > $OUT/r/ncu-run.txt 2>&1
echo "ncu rc $? $(( $(date +%s)-t0 ))s"
$NCU --import $OUT/r/rel.ncu-rep --page raw --csv > $OUT/r/raw.csv 2>&1 && rm -f $OUT/r/rel.ncu-rep
python3 - $OUT/r/raw.csv <<'PY' || true
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
d = dict(zip(rows[0], rows[2]))
def f(v):
    try: return float(v.replace(",", ""))
    except ValueError: return 0.0
for k in sorted((k for k in d if "issue_stalled" in k and k.endswith("per_issue_active.ratio")), key=lambda k: -f(d[k]))[:8]:
    print(k.replace("smsp__average_warps_issue_stalled_", ""), d[k])
for k in ("sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active",
          "smsp__issue_active.avg.pct_of_peak_sustained_active", "gpu__time_duration.sum"):
    print(k, d.get(k))
PY
cd $OUT && tar czf r.tgz r && rm -rf r
