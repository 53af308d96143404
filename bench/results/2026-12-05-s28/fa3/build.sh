#!/bin/bash
# usage: build.sh name   (one nvcc at a time, --threads 1)
n=$1
/usr/bin/time -v /usr/local/cuda/bin/nvcc --threads 1 -cubin -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 --use_fast_math \
  --expt-relaxed-constexpr -DCUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED -DCUTLASS_ENABLE_GDC_FOR_SM90 -DCUTLASS_DEBUG_TRACE_LEVEL=0 -DNDEBUG \
  -DFLASHATTENTION_DISABLE_SM8x -Xptxas -v \
  -I hopper -I cutlass/include -o $n.cubin $n.cu > $n.log 2>&1
echo "rc=$?" >> $n.log
