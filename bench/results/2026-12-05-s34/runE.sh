#!/usr/bin/env bash
# Session 34's call E, in two parts (bash runE.sh 1, then 2; each under the
# 10-minute limit). Carry (carry-DE, also holding runD2.sh's carry):
#   head/, wait/, ov/, ovwait/: session 33's runE.sh recipe (the defaults
#   against --wait-before-next-dot at d = 64 (also overlap=on), 128, 192, 256);
#   head/ also DIMS="80 96"; split/: DIMS="80 96" VARIANTS="dense causal"
#   SETS="--set split_columns=on" (Q·Kᵀ over 64 + 16 / 64 + 32 columns,
#   chained, instead of padding to 128); splitq/: the same with
#   --a-in-shared=false; peer_sdpa.py from ../shared/tools.
# On the device: rm -rf carry && mv carry-DE carry first.
part=${1:-1}
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
if [ "$part" = 1 ]; then
  timeout 220 python3 bench/compare.py --dirs head=carry/head,wait=carry/wait --variants dense,causal --dims 128,192,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
  timeout 100 python3 carry/peer_sdpa.py --dims 64,96,128,192,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
  timeout 200 python3 bench/compare.py --dirs head=carry/head,wait=carry/wait,ov=carry/ov,ovwait=carry/ovwait --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd64 > $OUT/r/fwd64.txt 2>&1; echo "fwd64 rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/fwd.txt $OUT/r/fwd64.txt; grep -v "^#" $OUT/r/sdpa.txt
else
  timeout 250 python3 bench/compare.py --dirs head=carry/head,split=carry/split,splitq=carry/splitq --variants dense,causal --dims 96,80 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/split > $OUT/r/split.txt 2>&1; echo "split rc $? $(( $(date +%s)-t0 ))s"
  cat $OUT/r/split.txt
fi
cd $OUT && tar czf r$part.tgz r && rm -rf r
