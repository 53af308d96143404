#!/usr/bin/env bash
# Session 33's call D2 — prepared, NOT RUN (no device could be lent after
# call C; a first form with 87 cases lost the machine once and found none
# three times). The GPU cases of the chained Q·Kᵀ and the split-column
# schedule (Q in registers; 128-key blocks at (192, 128) without a mask or
# score modifier), at 1ecc3df's compiler. Carry (carry-D):
#   cases.tgz: 39 cases, tar of cases/ made from
#     HEADDIMS=1 ARCHS=sm_90a scripts/gpu-cases.sh (dims "40 80 96 192
#     192/128"): the cases matching
#     ^sm90a_d192_(128_)?(bf16|f16)_(split_)?(fwd|varlen|bwd_dq|bwd_dkdv) and
#     ^sm90a_d(80|96)_.*split_(fwd_causal|bwd); and DEFAULTS=1
#     scripts/gpu-cases.sh's ^sm90a_d192 cases (every variant ragged, f16
#     empty rows, tiny, prefix LM);
#   new/, n128/: DIMS=192v128 VARIANTS=alibi bench/compile-variants.sh with
#     SETS "" and "--set block_n=128" (ALiBi's default against the 128-key
#     blocks that spill 40 bytes).
# Racecheck on two of the defaults'. On the device: rm -rf carry && mv carry-D carry first.
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
timeout 60 python3 bench/compare.py --dirs new=carry/new,n128=carry/n128 --variants alibi --dims 192v128 --seqlens 4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
