#!/usr/bin/env bash
# Session 37's call F: ncu (full set, warp-state sampling by SASS
# instruction) on one launch of the dense d = 128 forward at N = 1k with Q
# on two slots (--persistent --tile-slots=2: O staged in the last V slot),
# to see where call E's tile-boundary waits went.
# Carry: carry-F (compile-variants.sh, d = 128 dense, --persistent --tile-slots=2).
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
n=1024
timeout 150 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/d$n -f python3 bench/variants.py --ptx-dir carry/ps --variants dense --dims 128 --seqlens $n > $OUT/r/ncu$n.txt 2>&1; echo "ncu $n rc $? $(( $(date +%s)-t0 ))s"
$NCU --import $OUT/r/d$n.ncu-rep --page source --csv --print-source sass > $OUT/r/source$n.csv 2>&1
$NCU --import $OUT/r/d$n.ncu-rep --page details --csv > $OUT/r/details$n.csv 2>&1
rm -f $OUT/r/d$n.ncu-rep; gzip $OUT/r/source$n.csv
grep -E '"(Duration|Elapsed Cycles)"' $OUT/r/details$n.csv | awk -F'","' '{print $(NF-2), $(NF-1), $NF}'
cd $OUT && tar czf r.tgz r && rm -rf r
