#!/usr/bin/env bash
# Session 52's call H (carry-H from make-carry-H.sh), for a later session:
# the d = 128 backward with its linear kernels at other tile sizes (def,
# l32, w4, p32, pal; only prep and dq_convert differ, so every row's change is
# theirs), two reps, then ncu's duration and DRAM throughput of the default
# and l32 prep and convert at N = 1k, and cuDNN's backward in the same call.
. bench/results/lib.sh
call_header > $OUT/header.txt; cat $OUT/header.txt; t0=$(date +%s)
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
PEER=carry-H/peer_sdpa.py
compare_bwd bwd 320 def=carry-H/def,l32=carry-H/l32,w4=carry-H/w4,p32=carry-H/p32,pal=carry-H/pal
peers bwd 128 90 peers-bwd
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for set in def l32 pal; do
  for kernel in bwd_prep dq_convert; do # (prep: the two-kernel row's launches, the same kernel)
    timeout 60 $NCU --clock-control none --section SpeedOfLight --kernel-name regex:$kernel \
      --launch-skip 5 --launch-count 2 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry-H/$set \
      --seqlens=1024 --filter=flash_attention_bwd_dkdv_d128 > $OUT/r/ncu-$set-$kernel.txt 2>&1
    echo "ncu $set $kernel rc $? $(elapsed)"
    grep -E "  flash_attention|Duration|DRAM Throughput" $OUT/r/ncu-$set-$kernel.txt | head -8
  done
done
cd $OUT && tar czf r.tgz r && rm -rf r
