#!/usr/bin/env bash
# Session 34's call R: the causal d = 128 default (persistent grid, heads in
# sections of about rounds-per-section = 2 rounds of tiles) against 4
# and 8 rounds a section and one program a tile (--persistent=false), beside
# cuDNN. Call F's ncu (causal 4k): SM active cycles 728k of 821k elapsed
# (11 % idle), and a model of the static order (bench/results/2026-12-05-s34/
# schedule_model.py) gives 0.91 balance at 4k for 2 rounds, 0.97 for 4.
# Carry (carry-R): rpsN/ = DIMS=128 VARIANTS=causal bench/compile-variants.sh
# with tile-persistent-grid's rounds-per-section = N (a compiler built with
# that default); np/ with SETS=--persistent=false; peer_sdpa.py.
# On the device: rm -rf carry && mv carry-R carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs rps2=carry/rps2,rps4=carry/rps4,rps8=carry/rps8,np=carry/np --variants causal --dims 128 --seqlens 1024,2048,4096,8192,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 carry/peer_sdpa.py --dims 128 --seqlens 1024,2048,4096,8192,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
