#!/usr/bin/env bash
# Session 36's call V: the new defaults (causal d = 128 and 96 claim tiles
# from a counter; causal d = 96 persistent with Q on two slots) — the
# persistent GPU cases in them (full grid and 3 programs, each launched
# twice), racecheck and memcheck on the causal d = 96 case; then causal
# d = 80 and 112 one program a tile (head) against d = 96's new form (pcs),
# and cuDNN at d = 112. Carry: carry-V (make-carry-V.sh).
# On the device: rm -rf carry && mv carry-V carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 45 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cv > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 45 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cv > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
tail -1 $OUT/r/cases.txt $OUT/r/cases3.txt; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
mkdir -p carry/one && cp -r carry/cv/sm90a_d96_fwd_causal_ragged carry/one/
for tool in racecheck memcheck; do
  TILEC_PERSISTENT_PROGRAMS=3 timeout 60 compute-sanitizer --tool $tool --print-limit 5 build-gpu/bin/tilec-run-case --cases-in=carry/one > $OUT/r/$tool.txt 2>&1; echo "$tool rc $? $(( $(date +%s)-t0 ))s"
  grep -E "SUMMARY|hazard|ERROR|FAIL" $OUT/r/$tool.txt | sort | uniq -c | head -5
done
S="1024,2048,4096,16384"
timeout 90 python3 bench/compare.py --dirs head=carry/head,pcs=carry/pcs --variants causal --dims 80,112 --seqlens $S --reps 2 --out $OUT/r/c > $OUT/r/c.txt 2>&1; echo "c rc $? $(( $(date +%s)-t0 ))s"
timeout 40 python3 carry/peer_sdpa.py --dims 112 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
