#!/usr/bin/env bash
# Session 34's call W: GPU cases of --wait-before-next-dot (each wgmma wait
# kept before the next dot's issue) on the kernels whose PTX it changes:
# d = 192, (192, 128), 256 defaults, overlap at d = 64 and 128 (ping-pong),
# the persistent d = 128 defaults — ragged N, empty rows, tiny, f16, GQA 3,
# B and H > 1. Carry (carry-W): cases.tgz from `DEFAULTS=1
# FLAGS=--wait-before-next-dot scripts/gpu-cases.sh` (17 of its cases) plus
# three d = 128 cases exported with --wait-before-next-dot. Racecheck on two.
# On the device: rm -rf carry && mv carry-W carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
tar xzf carry/cases.tgz -C carry
timeout 150 build-gpu/bin/tilec-run-case --cases-in=carry/cases > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/cases.txt; grep -E "FAIL|rror" $OUT/r/cases.txt | head -20
mkdir -p carry/race && for c in carry/cases/sm90a_d128_fwd_causal_ragged carry/cases/sm90a_d192_fwd_causal_ragged; do cp -r $c carry/race/; done
timeout 90 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/race > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/racecheck.txt; grep -E "RACECHECK SUMMARY|hazard|FAIL" $OUT/r/racecheck.txt | sort | uniq -c | head -5
cd $OUT && tar czf r.tgz r && rm -rf r
