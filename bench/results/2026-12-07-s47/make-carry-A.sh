#!/usr/bin/env bash
# Makes carry-A$PART/cases.tgz (from the repository root, after scripts/build.sh)
# for runA.sh: session 46's forward defaults (row_sums=end on every sm_90a
# TMA schedule, lazy_rescale on the warp-specialized d > 128 one) on the
# GPU through the standard case sets, which session 46 only compiled. The
# forward kernels of the sm_90a sets (the backward, decoding and prep
# kernels did not change) are ~220 MiB of cases, more than a call carries
# (64 MiB with the tree, 17 MiB of it tracked files), so they go in four
# parts:
#   PART=1: gpu-cases (sm90a_*), gpu-cases-persistent
#   PART=2: gpu-cases-defaults but its three largest cases
#   PART=3: those three, gpu-cases-counter but its three d = 128 B,H > 1
#           cases (27 MiB; d = 128 causal/GQA/dense ragged and tiny stay),
#           gpu-cases-inputs and gpu-cases-infer (forward kernels only)
#   PART=4: gpu-cases-headdims (forward kernels only)
# The sets are generated once into /tmp/s47a (ARCHS=sm_90a).
set -euo pipefail
part=${PART:?PART=1, 2, 3 or 4}
gen=/tmp/s47a carry=carry-A$part
fwd_only() { # dir: drop the kernels whose PTX session 46 did not change
  find "$1" -mindepth 1 -maxdepth 1 \( ! -name 'sm90a_*' -o -name '*bwd*' -o -name '*decode*' \
    -o -name '*combine*' -o -name '*prep*' -o -name '*convert*' \) ! -name tilegpu -exec rm -rf {} +
}
if [ ! -d $gen ]; then
  mkdir -p $gen
  ARCHS=sm_90a bash scripts/gpu-cases.sh $gen/gpu-cases > /dev/null
  for s in DEFAULTS PERSISTENT COUNTER INPUTS INFER HEADDIMS; do
    env $s=1 ARCHS=sm_90a bash scripts/gpu-cases.sh $gen/gpu-cases-$(echo $s | tr A-Z a-z) > /dev/null
  done
  for d in $gen/gpu-cases*; do fwd_only "$d"; done
  rm -rf $gen/gpu-cases-counter/sm90a_d128_fwd{,_causal,_gqa}_bh
fi
big="sm90a_d96_causal_bh sm90a_long_d64_f16_bh sm90a_d96_fwd_ragged_bh"
rm -rf $carry /tmp/s47a-part && mkdir -p $carry /tmp/s47a-part
case $part in
  1) cp -r $gen/gpu-cases $gen/gpu-cases-persistent /tmp/s47a-part/ ;;
  2) cp -r $gen/gpu-cases-defaults /tmp/s47a-part/
     for c in $big; do rm -rf /tmp/s47a-part/gpu-cases-defaults/$c; done ;;
  3) mkdir -p /tmp/s47a-part/gpu-cases-defaults
     for c in $big; do cp -r $gen/gpu-cases-defaults/$c /tmp/s47a-part/gpu-cases-defaults/; done
     cp -r $gen/gpu-cases-counter $gen/gpu-cases-inputs $gen/gpu-cases-infer /tmp/s47a-part/ ;;
  4) cp -r $gen/gpu-cases-headdims /tmp/s47a-part/ ;;
esac
tar czf $carry/cases.tgz -C /tmp/s47a-part .
du -sh $carry
