#!/usr/bin/env bash
# session 24 call B: schedules for d = 256 and d = 64 (HEAD 6139048's compiler), alternating,
# next to the peers. carry/v-*: flash_attention_fwd{,_causal}-dD.ptx by
#   tilec --kernel=K --arch=sm_90a --set head_dim=D [options] --emit=ptx
# v-def: defaults (d = 64, 256); d = 256: v-ov --set overlap=on; v-n32ov + --set block_n=32;
# v-n32ov4 + --pipeline-stages=4; d = 64 with WS="--warp-specialize --ping-pong --tma
# --lowering=tilegpu": v-ws $WS; v-wsov $WS --set overlap=on; v-wsn128ov + --set block_n=128.
# Carry: carry/v-* carry/peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
python3 bench/compare.py --dirs def=carry/v-def,ov=carry/v-ov,n32ov=carry/v-n32ov,n32ov4=carry/v-n32ov4 --variants dense,causal --dims 256 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/c256 > $OUT/r/c256.txt 2>&1; echo "c256 rc $? $(( $(date +%s)-t0 ))s"
python3 bench/compare.py --dirs def=carry/v-def,ws=carry/v-ws,wsov=carry/v-wsov,wsn128ov=carry/v-wsn128ov --variants dense,causal --dims 64 --seqlens 1024,4096,16384 --reps 2 --out $OUT/r/c64 > $OUT/r/c64.txt 2>&1; echo "c64 rc $? $(( $(date +%s)-t0 ))s"
timeout 90 python3 carry/peer_sdpa.py --dims 64,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/c256.txt $OUT/r/c64.txt; grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
