#!/usr/bin/env bash
# Calls E and V in one (carry: carry-E and carry-V, see prepareE.sh and
# prepareV.sh): the row-groups case's six builds and the fixed one, then
# the variants next to FlexAttention.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
rm -rf carry && mv carry-E carry && bash bench/results/2026-12-05-s30/runE.sh 2>&1 | tail -20
rm -rf carry && mv carry-V carry && sed 's/timeout 150 python3 carry\/peer_flex.py/timeout 200 python3 carry\/peer_flex.py/' bench/results/2026-12-05-s30/runV.sh > /tmp/runV.sh && bash /tmp/runV.sh
cd $OUT && tar czf r.tgz r && rm -rf r
