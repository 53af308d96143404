#!/usr/bin/env bash
# Prepared in session 46 for the next call (carry-Q from make-carry-Q.sh;
# about 330 s): GPU cases of the persistent d = 192 / 256 forwards, then
# the persistent grid (static, counter) against one program a tile at
# d = 256 and 192 beside cuDNN, and (192, 128) with and without the lazy
# rescale.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-Q/cases.tgz -C /tmp
build_run_case; echo "build $(elapsed)"
run_cases /tmp/q "$OUT/r"
Q=carry-Q PEER=carry-Q/peer_sdpa.py
compare_fwd f256 50 256 def=$Q/d256,p=$Q/d256p,pc=$Q/d256pc
peers fwd 192,256 40 sdpa-fwd
compare_fwd f192 50 192 def=$Q/d192,p=$Q/d192p,pc=$Q/d192pc
compare_fwd f192v128 40 192v128 def=$Q/d192v128,step=$Q/d192v128s
