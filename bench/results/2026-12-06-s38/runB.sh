#!/usr/bin/env bash
# Session 38's call B: peel_first on by default in the d <= 128 schedule —
# the sm_90a forward cases it changes (head dims 72-128, packed batches at
# d = 128, the tile-counter set) on all programs and on 3, each launched
# twice; memcheck and racecheck on a packed causal batch; the forward at
# d = 112 and 128 old (no peel) / new (defaults) / slots2 (defaults + Q on
# two slots), N = 1k to 16k, two alternating runs; cuDNN in the same call.
# Carry: carry-B (make-carry-B.sh). On the device: rm -rf carry && mv carry-B carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/b > $OUT/r/cases-b.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/b > $OUT/r/cases3-b.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep "cases:" $OUT/r/cases*.txt; cat $OUT/r/cases*.txt | grep -E "FAIL|rror" | head -20
mkdir -p carry/san && cp -r carry/b/sm90a_varlen_causal_d128_f16 carry/san/
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/san > $OUT/r/$tool.txt 2>&1; echo "$tool rc $? $(( $(date +%s)-t0 ))s"
  grep -E "SUMMARY|hazard|ERROR SUMMARY" $OUT/r/$tool.txt | head -3
done
S="1024,2048,4096,8192,16384"
timeout 200 python3 bench/compare.py --dirs old=carry/old,new=carry/new,slots2=carry/slots2 --variants dense,causal --dims 112,128 --seqlens $S --reps 2 --out $OUT/r/b > $OUT/r/b.txt 2>&1; echo "b rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 112,128 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
