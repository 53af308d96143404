#!/usr/bin/env bash
# Session 47's call E (carry-E from make-carry-E.sh): the persistent
# d = 256 forward with O staged in Q's slot: its GPU cases (each launched
# twice, on all programs and on 3; racecheck and synccheck on them), then
# its speed against one program a tile, static and with the tile counter,
# beside cuDNN.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-E/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/e "$OUT/r"
TILEC_PERSISTENT_PROGRAMS=2 sanitize racecheck /tmp/e "$OUT/r"
TILEC_PERSISTENT_PROGRAMS=2 sanitize synccheck /tmp/e "$OUT/r"
E=carry-E PEER=carry-E/peer_sdpa.py
compare_fwd f256 80 256 def=$E/d256,p=$E/d256p,pc=$E/d256pc
peers fwd 256 40 sdpa-fwd
cd $OUT && tar czf r.tgz r && rm -rf r
