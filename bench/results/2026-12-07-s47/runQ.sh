#!/usr/bin/env bash
# Session 47's call Q: session 46's runQ.sh (carry-Q from
# bench/results/2026-12-07-s46/make-carry-Q.sh) with runM.sh's backward
# tail first (carry-H from session 44's make-carry-H.sh: the d = 128
# backward's default against the persistent fused kernel with tiles from a
# counter, with and without shared-offsets.patch — issue 13's pending
# decision), about 540 s:
# 1. GPU cases: persistent d = 192 / 256 (static, counter), (192, 128) with
#    the lazy rescale, prefix-LM / soft-capping at d = 64, 128, 256 and
#    document lists at d = 256 with session 46's defaults;
# 2. the d = 128 backward beside cuDNN (peer_sdpa.py --pass bwd);
# 3. the forward at d = 256 and 192 on a persistent grid (static, counter)
#    against one program a tile, and (192, 128) with and without the lazy
#    rescale, beside cuDNN.
. bench/results/lib.sh
call_header
mkdir -p "$OUT/r" && tar xzf carry-Q/cases.tgz -C /tmp
build_tools; echo "build $(elapsed)"
run_cases /tmp/q "$OUT/r"
Q=carry-Q H=carry-H PEER=carry-Q/peer_sdpa.py
compare_bwd b128 100 def=$H/b-def128,octr=$H/b-octr,octrb=$H/b-octrb
peers bwd 128 45 sdpa-bwd
compare_fwd f256 50 256 def=$Q/d256,p=$Q/d256p,pc=$Q/d256pc
peers fwd 192,256 40 sdpa-fwd
compare_fwd f192 50 192 def=$Q/d192,p=$Q/d192p,pc=$Q/d192pc
compare_fwd f192v128 40 192v128 def=$Q/d192v128,step=$Q/d192v128s
cd $OUT && tar czf r.tgz r && rm -rf r
