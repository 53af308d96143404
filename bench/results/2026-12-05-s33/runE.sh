#!/usr/bin/env bash
# Session 33's call E — prepared, NOT RUN (no device lent): the forward
# defaults (head/) against --wait-before-next-dot (wait/: P·V issued after
# Q·Kᵀ's wait, so ptxas keeps the softmax before P·V's wait), and at d = 64
# with overlap=on both ways (ov/, ovwait/), beside cuDNN. Carry (carry-E), at
# the compiler to be measured:
#   DIMS="64 128 192 256" VARIANTS="dense causal" bash bench/compile-variants.sh carry-E/head
#   DIMS="64 128 192 256" VARIANTS="dense causal" SETS="--wait-before-next-dot" \
#     bash bench/compile-variants.sh carry-E/wait
#   DIMS=64 VARIANTS="dense causal" SETS="--set overlap=on" bash bench/compile-variants.sh carry-E/ov
#   DIMS=64 VARIANTS="dense causal" SETS="--set overlap=on --wait-before-next-dot" \
#     bash bench/compile-variants.sh carry-E/ovwait
#   cp ../shared/tools/peer_sdpa.py carry-E/
# On the device: rm -rf carry && mv carry-E carry first.
mkdir -p $OUT/r
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u
timeout 200 python3 bench/compare.py --dirs head=carry/head,wait=carry/wait --variants dense,causal --dims 128,192,256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd > $OUT/r/fwd.txt 2>&1; echo "fwd rc $? $(( $(date +%s)-t0 ))s"
timeout 150 python3 bench/compare.py --dirs head=carry/head,wait=carry/wait,ov=carry/ov,ovwait=carry/ovwait --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/fwd64 > $OUT/r/fwd64.txt 2>&1; echo "fwd64 rc $? $(( $(date +%s)-t0 ))s"
timeout 100 python3 carry/peer_sdpa.py --dims 64,128,192,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/fwd.txt $OUT/r/fwd64.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
