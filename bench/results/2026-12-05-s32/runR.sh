#!/usr/bin/env bash
# Session 32's call R: the TMA rings filled by the computing threads (the
# d = 64 forward's default, dQ at d = 64 / 128, heavy-mask dK/dV, score-
# modifier backward, paged decoding) release their slots on "empty"
# mbarriers instead of a block barrier at the end of every iteration. Carry
# (made at the change): cases/ (the sm_90a d = 64 defaults, the sm_90a dQ,
# window and soft-capping dK/dV backward cases, paged decoding), rel/ (the
# forward at d = 64 compiled with the change), head/ (without: call E's fma0).
# On the device: rm -rf carry && mv carry-R carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1
build-gpu/bin/tilec-run-case --cases-in=carry/cases > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/cases.txt; grep -E "FAIL|rror" $OUT/r/cases.txt | head -20
timeout 200 compute-sanitizer --tool racecheck --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/cases > $OUT/r/racecheck.txt 2>&1; echo "racecheck rc $? $(( $(date +%s)-t0 ))s"
grep -E "RACECHECK SUMMARY|hazard|FAIL" $OUT/r/racecheck.txt | sort | uniq -c | head -5
timeout 200 python3 bench/compare.py --dirs head=carry/head,rel=carry/rel --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 3 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
