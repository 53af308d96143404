#!/usr/bin/env bash
# Session 33's call B: Q in registers (call A's qreg) as the base, with a
# persistent grid (qper), and at (192, 128) with 128-key blocks (qn128; Q's
# shared buffer then holds the last block's V and O: 214016 bytes), also
# persistent (qn128p). Carry: for each (name, DIMS, SETS) in
#   (qreg, "192 192v128", --a-in-shared=false),
#   (qper, "192 192v128", "--a-in-shared=false --persistent"),
#   (qn128, 192v128, "--a-in-shared=false --set block_n=128"),
#   (qn128p, 192v128, "--a-in-shared=false --set block_n=128 --persistent"):
#   DIMS=... VARIANTS="dense causal" SETS=... bash bench/compile-variants.sh carry-B/name
# and peer_sdpa.py in carry-B/. On the device: rm -rf carry && mv carry-B carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 150 python3 bench/compare.py --dirs qreg=carry/qreg,qper=carry/qper --variants dense,causal --dims 192 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd192 > $OUT/r/fwd192.txt 2>&1; echo "fwd192 rc $? $(( $(date +%s)-t0 ))s"
timeout 200 python3 bench/compare.py --dirs qreg=carry/qreg,qper=carry/qper,qn128=carry/qn128,qn128p=carry/qn128p --variants dense,causal --dims 192v128 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwdmla > $OUT/r/fwdmla.txt 2>&1; echo "fwdmla rc $? $(( $(date +%s)-t0 ))s"
timeout 80 python3 carry/peer_sdpa.py --dims 192 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
timeout 60 python3 bench/peer_heads.py --dims 192v128 --seqlens 1024,4096,16384 --json $OUT/r/heads.json > $OUT/r/heads.txt 2>&1; echo "heads rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd192.txt $OUT/r/fwdmla.txt; grep -v "^#" $OUT/r/sdpa.txt; grep -v "^#\|Warning\|fn = " $OUT/r/heads.txt
cd $OUT && tar czf r.tgz r && rm -rf r
