#!/usr/bin/env bash
# Session 34's last call: call R (runR.sh: rounds per section of the causal
# d = 128 persistent grid, beside cuDNN), then the GPU cases of the new
# d = 72 / 80 / 96 defaults (Q·Kᵀ and P·V over 64 + 16 / 64 + 32 column tiles,
# Q·Kᵀ chained): 17 cases (causal, GQA 3, packed causal from
# `HEADDIMS=1 ARCHS=sm_90a scripts/gpu-cases.sh`; dense ragged with B, H > 1,
# window, ALiBi, prefix-LM, soft-capping, f16 empty rows, tiny, exported by
# `tilec --export-case`, since then in `DEFAULTS=1 scripts/gpu-cases.sh`) as carry/c96/cases.tgz (tar of c96/), racecheck on two.
# On the device: rm -rf carry && mv carry-R carry first.
here=$(dirname "$0")
bash "$here/runR.sh"
mv $OUT/r.tgz $OUT/rps.tgz
mkdir -p $OUT/r
t0=$(date +%s)
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
tar xzf carry/c96/cases.tgz -C carry
timeout 100 build-gpu/bin/tilec-run-case --cases-in=carry/c96 > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/cases.txt; grep -E "FAIL|rror|cases:" $OUT/r/cases.txt | head -20
mkdir -p carry/race && for c in sm90a_d96_fwd_ragged_bh sm90a_d80_f16_fwd_causal; do cp -r carry/c96/$c carry/race/; done
timeout 60 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/racecheck.txt; grep -E "RACECHECK SUMMARY|hazard|FAIL" $OUT/r/racecheck.txt | sort | uniq -c | head -5
cd $OUT && tar czf cases.tgz r && rm -rf r
