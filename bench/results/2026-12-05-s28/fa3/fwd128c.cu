#include "flash_fwd_launch_template.h"
// hdim128 bf16 sm90, causal: tile 128x128, ClusterM=1
template void run_flash_fwd<90, 128, 128, 1, cutlass::bfloat16_t, cutlass::bfloat16_t,
  true, false, false, false, false, false, false, false, false, false>(Flash_fwd_params &, cudaStream_t);
