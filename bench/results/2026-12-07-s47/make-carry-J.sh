#!/usr/bin/env bash
# Makes carry-J/ (from the repository root after scripts/build.sh) for
# runJ.sh: d = 192, the row short of cuDNN on every measure (0.81-0.89x at
# N = 1k, causal 0.91x at 4k, timed alternately in call I), in forms that
# spill nothing: the default (Q in registers, 64-key blocks, two K/V
# stages), Q in shared memory (--a-in-shared), three K/V stages, both, and
# 80-key blocks (64 + 16).
set -euo pipefail
carry=carry-J
rm -rf $carry && mkdir -p $carry
. bench/results/carry-lib.sh
comp def 192 ""
comp qs 192 "--a-in-shared=true"
comp s3 192 "--pipeline-stages=3"
comp s3qs 192 "--pipeline-stages=3 --a-in-shared=true"
comp n80 192 "--set block_n=80"
du -sh $carry
