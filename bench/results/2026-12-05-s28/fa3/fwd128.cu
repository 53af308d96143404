#include "flash_fwd_launch_template.h"
// hdim128 bf16 sm90, non-causal: tile 128x176, RS, IntraWGOverlap; ClusterM=2 (used when #m-blocks even, the common case)
template void run_flash_fwd<90, 128, 128, 2, cutlass::bfloat16_t, cutlass::bfloat16_t,
  /*causal*/false, /*local*/false, /*softcap*/false, /*varlen*/false, /*pagedNonTMA*/false, /*appendkv*/false, /*hasqv*/false,
  /*packgqa*/false, /*split*/false, /*vcolmajor*/false>(Flash_fwd_params &, cudaStream_t);
