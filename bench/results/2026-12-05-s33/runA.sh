#!/usr/bin/env bash
# Session 33's call A: d = 192 and (192, 128) forward schedules beside cuDNN:
# base (HEAD's default: 128x64, split 128 + 64 columns, warp-specialized,
# overlap), qreg (Q·Kᵀ with Q in registers, --a-in-shared=false), st3 (three
# ring slots), noov (overlap=off); then ncu on base d = 192 dense at 4k.
# Carry: for each (name, SETS) in (base, ""), (qreg, --a-in-shared=false),
# (st3, --pipeline-stages=3), (noov, "--set overlap=off"):
#   DIMS="192 192v128" VARIANTS="dense causal" SETS=... bash bench/compile-variants.sh carry-A/name
# and peer_sdpa.py in carry-A/. On the device: rm -rf carry && mv carry-A carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 280 python3 bench/compare.py --dirs base=carry/base,qreg=carry/qreg,st3=carry/st3,noov=carry/noov --variants dense,causal --dims 192,192v128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens 1024,4096,16384 --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#" $OUT/r/heads.txt
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
timeout 120 $NCU --clock-control none --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats \
  --section WarpStateStats --section SpeedOfLight \
  --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/ncu192 -f \
  python3 bench/variants.py --ptx-dir carry/base --variants dense --dims 192 --seqlens 4096 > $OUT/r/ncu-run.txt 2>&1
echo "ncu rc $? $(( $(date +%s)-t0 ))s"
$NCU --import $OUT/r/ncu192.ncu-rep --page details --csv > $OUT/r/details.csv 2>&1
$NCU --import $OUT/r/ncu192.ncu-rep --page raw --csv > $OUT/r/raw.csv 2>&1
python3 - $OUT/r/raw.csv <<'PY' || true
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
head, units, vals = rows[0], rows[1], rows[2]
def num(v):
    try: return float(v.replace(",", ""))
    except ValueError: return -1
keep = [i for i, h in enumerate(head) if ("pipe" in h and "pct_of_peak_sustained_active" in h) or "shared" in h and "pct" in h or "stall" in h and h.endswith(".ratio")]
for i in sorted(keep, key=lambda i: -num(vals[i]))[:45]:
    print(f"  {head[i]} = {vals[i]} {units[i]}")
PY
cd $OUT && tar czf r.tgz r && rm -rf r
