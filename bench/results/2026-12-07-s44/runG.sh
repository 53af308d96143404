#!/usr/bin/env bash
# Session 44's call G (carry-F/ by session 43's make-carry-F.sh, carry-G/
# and carry-H/ by this session's make-carry-G.sh and make-carry-H.sh):
# correctness. The bisected query ranges' GPU cases (session 43's call F),
# the opaque shared offsets' cases (carry-H), all programs, launched twice;
# the Python package's fused-backward tests with the current defaults;
# racecheck on two persistent cases.
. bench/results/lib.sh
call_header
mkdir -p $OUT/r /tmp/c /tmp/h && tar xzf carry-F/cases.tgz -C /tmp/c && tar xzf carry-H/cases.tgz -C /tmp/h
t0=$(date +%s)
build_tools; echo "build $(( $(date +%s)-t0 ))s"
for set in c h; do
  timeout 90 build-gpu/bin/tilec-run-case --repeatable --cases-in=/tmp/$set/c > $OUT/r/cases-$set.txt 2>&1
  echo "cases $set rc $? $(( $(date +%s)-t0 ))s"
  grep -h "cases:" $OUT/r/cases-$set.txt; grep -h "FAIL" $OUT/r/cases-$set.txt | head
done
[ -d carry-G/torch-ptx ] && (cd python && TILEC_TEST_PTX_DIR=../carry-G/torch-ptx timeout 100 python3 -m unittest -v \
  tests.test_attention_gpu.AttentionOnGpu.test_fused_backward \
  tests.test_attention_gpu.BackwardOption 2>&1 | grep -E "ok$|FAIL|ERROR|Error|skipped|^Ran|^OK" | tail -20)
echo "python tests $(( $(date +%s)-t0 ))s"
mkdir -p /tmp/s && for c in o_fused_causal_d64_multi octrb_fused_causal_d128_ragged; do
  rm -rf /tmp/s/* && cp -r /tmp/h/c/$c /tmp/s/
  timeout 100 compute-sanitizer --tool racecheck build-gpu/bin/tilec-run-case --cases-in=/tmp/s \
    > $OUT/r/race-$c.txt 2>&1
  echo "racecheck $c rc $? $(grep -h "hazard\|ERROR SUMMARY" $OUT/r/race-$c.txt | tail -1)"
done
echo "done $(( $(date +%s)-t0 ))s"
