#!/usr/bin/env bash
# Session 35's smallest call (what the device time left after failed starts
# allows): the --tile-counter GPU cases on 3 programs (many claims each),
# launched twice (--repeatable: the counter reset by the last claim), and
# causal d = 128 at N = 4k and 16k against the static order. Carry: carry-T
# (runT1.sh's header). On the device: rm -rf carry && mv carry-T carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
TILEC_PERSISTENT_PROGRAMS=3 timeout 50 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cc > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
grep -c "^PASS" $OUT/r/cases3.txt; grep -E "FAIL|rror" $OUT/r/cases3.txt | head -20
timeout 60 python3 bench/compare.py --dirs head=carry/c_head,tc=carry/c_tc --variants causal --dims 128 --seqlens 4096,16384 --reps 2 --out $OUT/r/c128 > $OUT/r/c128.txt 2>&1; echo "c128 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c128.txt
cd $OUT && tar czf r.tgz r && rm -rf r
