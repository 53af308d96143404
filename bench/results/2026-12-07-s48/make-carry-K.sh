#!/usr/bin/env bash
# Makes carry-K/ for runK.sh (from the repository root after scripts/build.sh;
# carry-J/ from session 47's make-carry-J.sh for its d = 192 forms and cases).
# The "pin" sets are the default PTX with bench/results/2026-12-07-s48/pin.py's edit (session 48,
# an experiment before the compiler emits it): before the P·V wgmma.wait_group
# a store of the two row sums under a predicate no launch makes true.
set -euo pipefail
carry=carry-K cases=/tmp/s48/kp
rm -rf $carry /tmp/s48 && mkdir -p $carry $cases /tmp/s48/jp
. bench/results/carry-lib.sh
comp def "64 128 192 256" ""
comp nextpv "128 192 256" "--set rescale_at=next_pv"
for d in 128 192 256; do
  exp d${d}_ragged flash_attention_fwd --set head_dim=$d --size batch=2 --size heads=2 --size seq_q=300 \
    --size seq_k=333 --size amplitude=8
  exp d${d}_causal_nq_gt_nk flash_attention_fwd_causal --set head_dim=$d --size seq_q=600 --size seq_k=45
  exp d${d}_causal flash_attention_fwd_causal --set head_dim=$d --size heads=2 --size seq_q=520 --size seq_k=700
done
exp d192v128_causal flash_attention_fwd_causal --set head_dim=192 --set head_dim_v=128 --size seq_q=200 \
  --size seq_k=250
tar xzf carry-J/cases.tgz -C /tmp/s48 && cp -r /tmp/s48/j/* /tmp/s48/jp/
for c in /tmp/s48/kp/* /tmp/s48/jp/*; do
  python3 bench/results/2026-12-07-s48/pin.py $c/kernel.ptx $c/kernel.ptx.new > /dev/null && mv $c/kernel.ptx.new $c/kernel.ptx
done
for s in def nextpv; do
  mkdir -p $carry/${s/def/}pin
  for f in $carry/$s/*.ptx; do python3 bench/results/2026-12-07-s48/pin.py $f $carry/${s/def/}pin/$(basename $f) > /dev/null; done
  cp $carry/$s/*.json $carry/${s/def/}pin/
done
[ -d $carry/nextpvpin ] && mv $carry/nextpvpin $carry/npin
tar czf $carry/cases.tgz -C /tmp/s48 kp jp
du -sh $carry
