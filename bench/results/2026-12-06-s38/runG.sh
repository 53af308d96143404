#!/usr/bin/env bash
# Session 38's call G: the cases of make-carry-G.sh on all programs and on
# 3, each launched twice; memcheck and racecheck on the narrow window.
# Carry: carry-G. On the device: rm -rf carry && mv carry-G carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/g > $OUT/r/cases-g.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 60 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/g > $OUT/r/cases3-g.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases*.txt; cat $OUT/r/cases*.txt | grep -E "FAIL|rror" | head -20
mkdir -p carry/san && cp -r carry/g/sm90a_d128_window5 carry/san/
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/san > $OUT/r/$tool.txt 2>&1; echo "$tool rc $? $(( $(date +%s)-t0 ))s"
  grep -E "SUMMARY" $OUT/r/$tool.txt | head -3
done
cd $OUT && tar czf r.tgz r && rm -rf r
