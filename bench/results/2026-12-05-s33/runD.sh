#!/usr/bin/env bash
# Session 33's call D: the chained Q·Kᵀ and the split-column schedule
# (Q in registers; 128-key blocks at (192, 128)) on the GPU. Cases (42, as
# cases.tgz): HEADDIMS=1 ARCHS=sm_90a scripts/gpu-cases.sh's forward,
# packed and backward cases at d = 192 and (192, 128), and its split ones at
# 40, 80, 96 (forward causal, dK/dV, dQ); the DEFAULTS=1 set's d = 192 and
# (192, 128) cases; racecheck on two of the defaults'. (A first try with
# 87 cases and racecheck on 15 lost the machine.) Timing: the variants at d = 192 and (192, 128)
# with the new defaults (new/) against 64-key blocks with Q in shared
# memory (n64qs/: --a-in-shared=true --set block_n=64; chained too):
#   DIMS="192 192v128" VARIANTS="sliding_window softcap alibi gqa prefix_lm" SETS=... \
#     bash bench/compile-variants.sh carry-D/name
# On the device: rm -rf carry && mv carry-D carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
tar xzf carry/cases.tgz -C carry
timeout 150 build-gpu/bin/tilec-run-case --cases-in=carry/cases > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/cases.txt; grep -E "FAIL|rror" $OUT/r/cases.txt | head -20
mkdir -p carry/race && for c in carry/cases/sm90a_d192v128_fwd_causal_ragged carry/cases/sm90a_d192v128_tiny; do cp -r $c carry/race/; done
timeout 90 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/racecheck.txt; grep -E "RACECHECK SUMMARY|hazard|FAIL" $OUT/r/racecheck.txt | sort | uniq -c | head -5
timeout 120 python3 bench/compare.py --dirs n64qs=carry/n64qs,new=carry/new --variants sliding_window,softcap,alibi,gqa,prefix_lm --dims 192,192v128 --seqlens 4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
