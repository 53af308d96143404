#!/usr/bin/env bash
# Session 34's first call: session 33's call D2 (the GPU cases of the d = 192
# and (192, 128) defaults, racecheck, ALiBi (192, 128) at 64 vs 128 keys),
# then call W (runW.sh: the GPU cases of --wait-before-next-dot) from
# carry/w. Carry (carry-DE): runD2.sh's and runE.sh's carries, and w/ with
# runW.sh's cases.tgz. On the device: rm -rf carry && mv carry-DE carry first.
here=$(dirname "$0")
bash "$here/../2026-12-05-s33/runD2.sh"
mv $OUT/r.tgz $OUT/d2.tgz
rm -rf carry/cases carry/race
mkdir -p carry/wrun && cp carry/w/cases.tgz carry/wrun/ && mv carry carry-all && mv carry-all/wrun carry
bash "$here/runW.sh"
mv $OUT/r.tgz $OUT/w.tgz
rm -rf carry && mv carry-all carry
