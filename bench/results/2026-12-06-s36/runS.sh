#!/usr/bin/env bash
# Session 36's call S: --tile-slots=2 (the per-tile Q ring on two slots)
# — its GPU cases (persistent, tile counter, two slots; d = 80 and 96,
# ragged, N_q != N_k, empty rows, tiny, GQA 2 and 3, B/H > 1, bf16/f16;
# d = 128 too)
# on the programs that fit and on 3, each launched twice; then the d = 80
# and 96 forward in the grid forms of make-carry-S.sh, N = 1k to 16k, and
# cuDNN. Carry: carry-S (make-carry-S.sh).
# On the device: rm -rf carry && mv carry-S carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
[ -x build-gpu/bin/tilec-run-case ] || { cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release > /dev/null &&
  cmake --build build-gpu --target tilec-run-case > /dev/null 2>&1; }
echo "built $(( $(date +%s)-t0 ))s"
tar xzf carry/cases.tgz -C carry
timeout 45 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cs > $OUT/r/cases.txt 2>&1; echo "cases rc $? $(( $(date +%s)-t0 ))s"
TILEC_PERSISTENT_PROGRAMS=3 timeout 45 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry/cs > $OUT/r/cases3.txt 2>&1; echo "cases on 3 programs rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -c "^PASS"; cat $OUT/r/cases.txt $OUT/r/cases3.txt | grep -E "FAIL|rror" | head -20
S="1024,2048,4096,16384"
timeout 210 python3 bench/compare.py --dirs head=carry/head,p=carry/p,ps=carry/ps --variants dense --dims 80,96,128 --seqlens $S --reps 2 --out $OUT/r/sd > $OUT/r/sd.txt 2>&1; echo "sd rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --dirs head=carry/head,pc=carry/pc,pcs=carry/pcs --variants causal --dims 96,128 --seqlens $S --reps 2 --out $OUT/r/sc > $OUT/r/sc.txt 2>&1; echo "sc rc $? $(( $(date +%s)-t0 ))s"
timeout 70 python3 carry/peer_sdpa.py --dims 80,96 --seqlens $S --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/sd.txt $OUT/r/sc.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
