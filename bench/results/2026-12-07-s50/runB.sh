#!/usr/bin/env bash
# Session 50's call B (session 49's, with d = 64 timed too) (carry-B from make-carry-B.sh): the
# fused backward with --f32-staging-bytes=32 (dQ staged in 32-byte column
# blocks: no bank conflicts in its f32 stores): GPU cases and racecheck, then the d = 128 backward old against
# new (bench/compare.py --pass bwd). Session 50 adds the fused kernels
# with --set statistics=lse_top (lse loaded above the step's wgmmas): lse (on
# old), both (on new).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/s50 && tar xzf carry-B/cases.tgz -C /tmp/s50
build_tools; echo "tools $(elapsed)"
run_cases /tmp/s50/b $OUT/r
rm -f carry-B/*/*_d64.* # (device time was short: d = 128 only)
compare_bwd bwd 300 old=carry-B/old,new=carry-B/new,lse=carry-B/lse,both=carry-B/both
mkdir -p /tmp/s50/rc && for c in both128_causal both128_gqa d64_causal_f16 lse128_ragged; do
  cp -r /tmp/s50/b/$c /tmp/s50/rc/; done
sanitize racecheck /tmp/s50/rc $OUT/r
cd $OUT && tar czf r.tgz r && rm -rf r
