#!/usr/bin/env bash
# session 21 call I: where a short-sequence program's time goes: ncu (full set, warp-state
# sampling per SASS instruction) on one launch of the d = 128 forward at N = 1k (B = 16,
# H = 16), the kernel bench/variants.py times; source page exported as CSV.
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
timeout 200 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/fwd1k -f python3 bench/variants.py --ptx-dir carry/s21/v-one --variants dense --dims 128 --seqlens 1024 > $OUT/r/ncu-run.txt 2>&1; echo "ncu rc $? $(( $(date +%s)-t0 ))s"
tail -5 $OUT/r/ncu-run.txt
$NCU --import $OUT/r/fwd1k.ncu-rep --page details --csv > $OUT/r/details.csv 2>&1; echo "details rc $?"
$NCU --import $OUT/r/fwd1k.ncu-rep --page source --csv --print-source sass > $OUT/r/source.csv 2>&1; echo "source rc $? $(wc -l < $OUT/r/source.csv) lines"
grep -E "Duration|Elapsed Cycles|Compute \(SM\) Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Waves Per SM" $OUT/r/details.csv | head -20
cd $OUT && tar czf r.tgz r && rm -rf r
