#!/usr/bin/env bash
# Session 47's call G (carry-E): b2b.py on the d = 256 forward at N = 1k
# (default and persistent) and cuDNN, with nvidia-smi logging the SM clock
# and power every 50 ms beside it; then d = 128 (carry-D's default).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 50 \
  > $OUT/r/smi.csv 2>&1 &
smi=$!
timeout 120 python3 bench/results/2026-12-07-s47/b2b.py --ptx carry-E/d256/flash_attention_fwd-d256.ptx \
  --ptx carry-E/d256p/flash_attention_fwd-d256.ptx 2>&1 | tee $OUT/r/b2b-256.txt
echo "b2b 256 rc $? $(elapsed)"
timeout 120 python3 bench/results/2026-12-07-s47/b2b.py --d 128 --ptx carry-D/d128/flash_attention_fwd-d128.ptx \
  2>&1 | tee $OUT/r/b2b-128.txt
echo "b2b 128 rc $? $(elapsed)"
kill $smi
python3 - "$OUT/r" <<'PY'
import sys, datetime, re
out = sys.argv[1]
samples = []
for line in open(f"{out}/smi.csv"):
    parts = [p.strip() for p in line.split(",")]
    try:
        t = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        samples.append((t, float(parts[1].split()[0]), float(parts[2].split()[0])))
    except (ValueError, IndexError):
        pass
for name in ("b2b-256.txt", "b2b-128.txt"):
    for line in open(f"{out}/{name}"):
        m = re.search(r"wall ([\d.]+)-([\d.]+)", line)
        if not m:
            continue
        t0, t1 = float(m.group(1)), float(m.group(2))
        inside = [s for s in samples if t0 <= s[0] <= t1]
        if inside:
            clk = sum(s[1] for s in inside) / len(inside)
            pw = max(s[2] for s in inside)
            print(f"{line.split(chr(9))[0]}\t{line.split(chr(9))[1]}\tSM clock {clk:.0f} MHz\tpower max {pw:.0f} W\t({len(inside)} samples)")
PY
cd $OUT && tar czf r.tgz r && rm -rf r
