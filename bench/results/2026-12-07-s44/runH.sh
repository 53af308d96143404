#!/usr/bin/env bash
# Session 44's call H (right after call G, same carries): the fused
# backward's timings, two alternating runs each, cuDNN's backward in the
# same call. d = 64: defaults before this session (old64), bisecting
# (new64), with the opaque shared offsets (o, ob). d = 128: one program a
# tile (def128), persistent with a tile counter scanning/bisecting before
# (ctr, ctrb) and with the opaque offsets (octr, octrb). The d = 96 / 128
# forwards before and after (their persistent epilogues changed).
. bench/results/lib.sh
call_header
mkdir -p $OUT/r
t0=$(date +%s)
[ -x build-gpu/bin/tilec-bench ] || build_tools; echo "build $(( $(date +%s)-t0 ))s"
H=carry-H G=carry-G
timeout 200 python3 bench/compare.py --pass bwd \
  --dirs old64=$H/b-old64,new64=$H/b-new64,o=$H/b-o,ob=$H/b-ob \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b64 > $OUT/r/b64.txt 2>&1
echo "b64 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b64.txt
timeout 230 python3 bench/compare.py --pass bwd \
  --dirs def=$H/b-def128,ctr=$G/b-ctr,ctrb=$G/b-ctrb,octr=$H/b-octr,octrb=$H/b-octrb \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/b128 > $OUT/r/b128.txt 2>&1
echo "b128 rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/b128.txt
timeout 60 python3 bench/compare.py --dirs old=$H/fold,new=$H/fnew --dims 96,128 \
  --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/f > $OUT/r/f.txt 2>&1
echo "fwd rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/f.txt
timeout 80 python3 $G/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 \
  --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1
echo "sdpa bwd rc $? $(( $(date +%s)-t0 ))s"
grep -v "^#" $OUT/r/sdpa-bwd.txt
