#!/usr/bin/env bash
# Session 52's call F (carry-F from make-carry-F.sh): GPU cases of the new
# fused d = 128 default (one consumer barrier a step) with a 100-key
# prefix-LM prompt, GQA 5 f16, tiny and empty rows, on all programs and on
# 3; racecheck on the prefix-LM and GQA ones; then the d = 128 backward
# with dQ's share before dK's dot (def), its dot before and store after
# (dqdot, FlashAttention-3's order) and after (dqafter), two reps, and
# cuDNN's backward in the same call; last, ncu's duration and DRAM
# throughput of the fused backward's three kernels (prep, fused, convert)
# at N = 1k, where the two linear ones are the largest share.
. bench/results/lib.sh
call_header | tee $OUT/header.txt
mkdir -p $OUT/r
build_tools; echo "tools $(elapsed)"
mkdir -p /tmp/s52 && tar xzf carry-F/cases.tgz -C /tmp/s52
run_cases /tmp/s52/f $OUT/r
mkdir -p /tmp/s52/race && cp -r /tmp/s52/f/pre128_ragged /tmp/s52/f/pre128_f16 /tmp/s52/f/one_gqa5_f16 /tmp/s52/race/
sanitize racecheck /tmp/s52/race $OUT/r
PEER=carry-F/peer_sdpa.py
compare_bwd bwd 200 def=carry-F/def,dqdot=carry-F/dqdot,dqafter=carry-F/dqafter
peers bwd 128 90 peers-bwd
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
timeout 90 $NCU --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis \
  --kernel-name regex:"bwd_prep|bwd_fused|dq_convert" --launch-skip 3 --launch-count 6 \
  build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry-F/def --seqlens=1024 \
  --filter=flash_attention_bwd_dkdv_d128 > $OUT/r/ncu-linear.txt 2>&1
echo "ncu rc $? $(elapsed)"
grep -E "flash_attention|Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)" $OUT/r/ncu-linear.txt | head -40
cd $OUT && tar czf r.tgz r && rm -rf r
