#!/usr/bin/env bash
# Session 48's call N (carry-N from make-carry-N.sh): the new defaults'
# GPU cases, on all programs and on 3, racecheck and synccheck on some.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/s48 && tar xzf carry-N/cases.tgz -C /tmp/s48
build_run_case; echo "build $(elapsed)"
run_cases /tmp/s48/n "$OUT/r"
mkdir -p /tmp/nrc && cp -r /tmp/s48/n/d192_fwd_causal /tmp/s48/n/d192_window /tmp/s48/n/wsc256 \
  /tmp/s48/n/d192_persistent /tmp/nrc/
sanitize racecheck /tmp/nrc "$OUT/r"
sanitize synccheck /tmp/nrc "$OUT/r"
echo "done $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
