#!/usr/bin/env bash
# Session 32's call P: where the d = 64 forward's warps still wait, by SASS
# instruction: ncu's full set with warp-state sampling on one launch of the
# dense d = 64 forward at N = 4k (rings released on mbarriers; carry-P/rel
# from `DIMS=64 VARIANTS=dense bash bench/compile-variants.sh carry-P/rel`).
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/fwd64 -f python3 bench/variants.py --ptx-dir carry/rel --variants dense --dims 64 --seqlens 4096 > $OUT/r/ncu-run.txt 2>&1; echo "ncu rc $? $(( $(date +%s)-t0 ))s"
$NCU --import $OUT/r/fwd64.ncu-rep --page source --csv --print-source sass > $OUT/r/source.csv 2>&1; echo "source rc $? $(wc -l < $OUT/r/source.csv) lines"
$NCU --import $OUT/r/fwd64.ncu-rep --page details --csv > $OUT/r/details.csv 2>&1
rm -f $OUT/r/fwd64.ncu-rep; gzip $OUT/r/source.csv
cd $OUT && tar czf r.tgz r && rm -rf r
