#!/usr/bin/env bash
# Session 32's call C: causal d = 256 as a persistent grid (heads in
# sections, longest first; --persistent) against one program a tile (its
# default), beside cuDNN; the persistent kernel as a GPU case (ragged N,
# B = 2, H = 3) alone and under racecheck. Carry made by
#   DIMS=256 VARIANTS=causal [SETS=--persistent] bash bench/compile-variants.sh carry-C/{def,pers}
#   tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=256 --persistent \
#     --size batch=2 --size heads=3 --size seq_q=700 --size seq_k=700 --export-case=carry-C/cases/...
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "PASS|FAIL"
timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/cases 2>&1 | grep -E "RACECHECK SUMMARY|hazard" | head -3
timeout 200 python3 bench/compare.py --dirs def=carry/def,pers=carry/pers --variants causal --dims 256 --seqlens 1024,2048,4096,8192,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 256 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
