#!/usr/bin/env bash
# Session 34's call F: where the d = 128 forward's warps wait at its two
# shortest rows against cuDNN — dense at N = 1k (0.89×) and causal at 4k
# (0.87×) — by SASS instruction: ncu's full set with warp-state sampling on
# one launch of each default (carry/head from session 33's runE.sh recipe:
# DIMS="64 128 192 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-E/head).
mkdir -p $OUT/r
t0=$(date +%s)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
for run in "dense 1024" "causal 4096"; do
  set -- $run
  timeout 200 $NCU --clock-control none --set full --import-source no --kernel-name regex:flash_attention_fwd --launch-skip 4 --launch-count 1 -o $OUT/r/$1 -f python3 bench/variants.py --ptx-dir carry/head --variants $1 --dims 128 --seqlens $2 > $OUT/r/ncu-$1.txt 2>&1; echo "ncu $1 rc $? $(( $(date +%s)-t0 ))s"
  $NCU --import $OUT/r/$1.ncu-rep --page source --csv --print-source sass > $OUT/r/source-$1.csv 2>&1; echo "source rc $? $(wc -l < $OUT/r/source-$1.csv) lines"
  $NCU --import $OUT/r/$1.ncu-rep --page details --csv > $OUT/r/details-$1.csv 2>&1
  rm -f $OUT/r/$1.ncu-rep; gzip $OUT/r/source-$1.csv
done
cd $OUT && tar czf r.tgz r && rm -rf r
