#!/usr/bin/env bash
# Session 48's call M (carry-M from make-carry-M.sh): runL.sh's cases and
# timings (d = 192's waits off the softmax; d = 128 next_pv again), and
# windowed soft-capping on the fast schedules: its GPU cases (on all
# programs and on 3; racecheck) and bench/variants.py on the heavier
# schedule it had and on the new one, in turn.
. bench/results/lib.sh
set -o pipefail # the timings' rc, not tee's
call_header
M=carry-M
mkdir -p $OUT/r /tmp/s48 && tar xzf $M/cases.tgz -C /tmp/s48 && tar xzf $M/cases-m.tgz -C /tmp/s48
build_run_case; echo "build $(elapsed)"
run_cases /tmp/s48/l "$OUT/r"
run_cases /tmp/s48/m "$OUT/r"
mkdir -p /tmp/mrc && cp -r /tmp/s48/l/d192_causal /tmp/s48/l/d128_counter_causal /tmp/s48/l/d192_np80_causal \
  /tmp/s48/m/wsc128_nq_gt_nk /tmp/s48/m/wsc256_ragged /tmp/mrc/
sanitize racecheck /tmp/mrc "$OUT/r"
echo "cases done $(elapsed)"
for round in 1; do
  for s in wsc-old wsc-new; do
    timeout 60 python3 bench/variants.py --ptx-dir $M/$s --variants sliding_window_softcap --dims 64,128,256 \
      --seqlens 4096,8192,16384 --json $OUT/r/$s-$round.json > $OUT/r/$s-$round.txt 2>&1
    echo "$s round $round rc $? $(elapsed)"
  done
done
paste $OUT/r/wsc-old-1.txt $OUT/r/wsc-new-1.txt | cut -f1-6,9-12
timeout 200 python3 bench/ab_cudnn.py --ptx-dir def=$M/def --ptx-dir nextpv=$M/nextpv --ptx-dir kw=$M/kw \
  --ptx-dir npqs=$M/npqs --ptx-dir nps3=$M/nps3 --ptx-dir np80=$M/np80 --dims 192 \
  --json $OUT/r/ab192.json 2>&1 | tee $OUT/r/ab192.txt
echo "ab 192 rc $? $(elapsed)"
timeout 120 python3 bench/ab_cudnn.py --ptx-dir def=$M/def --ptx-dir nextpv=$M/nextpv --dims 128 \
  --json $OUT/r/ab128.json 2>&1 | tee $OUT/r/ab128.txt
echo "ab 128 rc $? $(elapsed)"
cd $OUT && tar czf r.tgz r && rm -rf r
