#!/usr/bin/env bash
# NOT RUN in session 24 (no device was lent for it): next session's first call.
# session 24 call G: the opt-in persistent kernels after the warp-uniform wgmma row offset
# (HEAD 18fdb2f): the 16 sm_90a PERSISTENT=1 cases, launched on the full grid and on 2
# programs (scripts/gpu-check.sh does both), with sanitizers.
# carry/cases.tgz: PERSISTENT=1 scripts/gpu-cases.sh DIR/gpu-cases-persistent, keeping sm90a_*.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/cases.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/summary.txt
cd $OUT && tar czf r.tgz r && rm -rf r
