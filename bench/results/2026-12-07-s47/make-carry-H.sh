#!/usr/bin/env bash
# Makes carry-H47/ (from the repository root after scripts/build.sh) for
# runH.sh: the forward defaults at d = 64, 96, 128, 192, 256 (dense and
# causal) and the backward sets at d = 64 and 128, for the grid against
# the peers with the first timing of each process after 1.5 s of warm-up
# (bench/timing.py, tilec-bench, bench/peer_warm.py: the SM clock dips for
# about half a second once an idle GPU starts working, session 47's call G).
set -euo pipefail
carry=carry-H47
rm -rf $carry && mkdir -p $carry
. bench/results/carry-lib.sh
comp def "64 96 128 192 256" ""
bash bench/compile-bwd.sh $carry/bwd > /dev/null
rm -f $carry/bwd/*.cubin
cp /work/shared/tools/peer_sdpa.py $carry/
du -sh $carry
