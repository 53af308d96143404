#!/usr/bin/env bash
# Session 50's call C (not run: no device time was left): call B cut to
# about four minutes (with the time for it, run runB.sh: racecheck, all 16
# cases, two reps). carry-C (make-carry-C.sh) holds carry-B's d = 128 sets
# and six of its cases. The cases on all
# programs, then one rep of the d = 128 backward: old, both (f32 staging 32 +
# lse_top), lse, new; then the d = 64 dense forward's schedules beside cuDNN.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
timeout 40 build-gpu/bin/tilec-run-case --repeatable --cases-in=carry-C/cases > $OUT/r/cases.txt 2>&1
echo "cases rc $? $(elapsed)"; grep -h "cases:" $OUT/r/cases.txt; grep -hE "FAIL|rror" $OUT/r/cases.txt | head
timeout 120 python3 bench/compare.py --pass bwd --dirs old=carry-C/old,both=carry-C/both,lse=carry-C/lse,new=carry-C/new \
  --seqlens 1024,4096,16384 --reps 1 --out $OUT/r/bwd > $OUT/r/bwd.txt 2>&1
echo "bwd rc $? $(elapsed)"; cat $OUT/r/bwd.txt
# Then the d = 64 dense forward as the Python launcher runs it (from 4k the
# long sequences' schedule) beside cuDNN, in turn in one process (about 1 min).
timeout 120 python3 bench/ab_cudnn.py --ptx-dir def=carry-C/f64def --ptx-dir long=carry-C/f64long \
  --dims 64 --variants dense --json $OUT/r/ab64.json > $OUT/r/ab64.txt 2>&1
echo "ab64 rc $? $(elapsed)"; cat $OUT/r/ab64.txt
cd $OUT && tar czf r.tgz r && rm -rf r
