#!/usr/bin/env bash
# Session 29's call B (speed); prepare with `prepare.sh B`, see its header.
mkdir -p $OUT/r
t0=$(date +%s)
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build build-gpu > $OUT/r/build.txt 2>&1; echo "build rc $? $(( $(date +%s)-t0 ))s"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 220 python3 bench/compare.py --dirs def=carry/v-def,pers=carry/v-pers,lastv=carry/v-lastv --dims 128,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
