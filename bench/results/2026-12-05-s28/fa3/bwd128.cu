#include "flash_bwd_launch_template.h"
// run_mha_bwd_hdim128 non-causal sm90: kBlockM=80, kBlockN=128, Stages_dO=2, Stages_dS=2, SdP_swapAB=1, dKV_swapAB=0, dQ_swapAB=1, 2 MMA WGs, AtomLayouts 1,2,1
template void run_flash_bwd<90, 128, 80, 128, cutlass::bfloat16_t, false, false, false, /*Varlen*/false, /*Det*/false, /*GQA*/false,
  2, 2, true, false, true, 2, 1, 2, 1, false>(Flash_bwd_params &, cudaStream_t);
