// The driver's errors name the problem and what is accepted, and exit non-zero.
// RUN: not tilec --kernel=flash_attention 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tilec --kernel=matmul --set block_q=64 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not tilec --kernel=matmul --set block_m=big 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tilec --kernel=matmul --set block_m=4 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tilec --kernel=flash_attention_fwd --set block_m=48 2>&1 | FileCheck %s --check-prefix=POW2
// RUN: not tilec --kernel=flash_attention_fwd_gqa --set group=2 --size heads=3 --run=cpu 2>&1 | FileCheck %s --check-prefix=GROUP
// RUN: not tilec --kernel=flash_attention_bwd_dq_gqa --set group=3 --size heads=4 --export-case=%t.case 2>&1 | FileCheck %s --check-prefix=GROUP3
// RUN: not tilec --kernel=flash_attention_fwd --set head_dim=100 2>&1 | FileCheck %s --check-prefix=HEADDIM
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_80 --exp2-on-fma=4 --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=FMA80
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --exp2-on-fma=100 --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=FMARANGE
// FMA80: tilec: error: --exp2-on-fma needs --lowering=tilegpu
// FMARANGE: tilec: error: --exp2-on-fma must be in [0, 64], got 100
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_80 --wait-before-next-dot --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=WAIT80
// WAIT80: tilec: error: --wait-before-next-dot needs --lowering=tilegpu
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_80 --keep-work-above-waits --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=KEEP80
// KEEP80: tilec: error: --keep-work-above-waits needs --lowering=tilegpu
// RUN: not tilec --kernel=flash_attention_bwd_dq --set head_dim=264 2>&1 | FileCheck %s --check-prefix=HEADDIM2
// RUN: not tilec --kernel=flash_attention_decode --set head_dim_v=4 2>&1 | FileCheck %s --check-prefix=HEADDIMV
// RUN: not tilec --kernel=matmul --set block_m 2>&1 | FileCheck %s --check-prefix=ASSIGN
// RUN: not tilec 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not tilec --kernel=matmul --run=cpu --size m=0 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not tilec %S/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tilec --kernel=vector_add --run=cpu --size n=1000000000000 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tilec --kernel=vector_add --export-case=%t.huge --size n=2147483648 2>&1 | FileCheck %s --check-prefix=HUGE2
// RUN: printf '' > %t.empty.mlir
// RUN: not tilec %t.empty.mlir --emit=ptx -o %t.empty.ptx 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not tilec %S/Inputs/two-kernels.mlir --emit=ptx -o %t.two.ptx 2>&1 | FileCheck %s --check-prefix=TWO
// A PTX output that is not a file gets no metadata beside it.
// RUN: mkdir -p %t.dev && ln -sf /dev/null %t.dev/k.ptx && rm -f %t.dev/k.json
// RUN: tilec --kernel=vector_add --emit=ptx -o %t.dev/k.ptx
// RUN: not ls %t.dev/k.json
// A kernel over the shared-memory limit is an error that leaves no PTX (or
// metadata) behind.
// RUN: rm -f %t.big.ptx %t.big.json
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=256 --set block_n=128 --emit=ptx -o %t.big.ptx 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not ls %t.big.ptx
// RUN: not ls %t.big.json

// UNKNOWN: tilec: error: unknown kernel 'flash_attention'; registered kernels: {{.*}}flash_attention_bwd_dkdv, {{.*}}flash_attention_fwd, {{.*}}matmul
// PARAM: tilec: error: kernel 'matmul': unknown parameter 'block_q'; accepted: block_m, block_n, block_k
// PARAM: parameters of 'matmul':
// TYPE: tilec: error: kernel 'matmul': 'block_m' expects an integer, got 'big'
// RANGE: tilec: error: kernel 'matmul': 'block_m' must be in [16, 256], got 4
// POW2: tilec: error: kernel 'flash_attention_fwd': 'block_m' must be a power of two (tile sizes are, on the GPU), got 48
// POW2: block_m        int (power of 2)
// GROUP: tilec: error: kernel 'flash_attention_fwd_gqa': --size heads=3 is not a multiple of group=2 (query heads per K/V head)
// GROUP3: tilec: error: kernel 'flash_attention_bwd_dq_gqa': --size heads=4 is not a multiple of group=3
// HEADDIM: tilec: error: kernel 'flash_attention_fwd': 'head_dim' must be a multiple of 8 in [8, 256], got 100
// HEADDIM: head_dim       int (multiple of 8)
// HEADDIM2: tilec: error: kernel 'flash_attention_bwd_dq': 'head_dim' must be a multiple of 8 in [8, 256], got 264
// HEADDIMV: tilec: error: kernel 'flash_attention_decode': 'head_dim_v' must be a multiple of 8 in [0, 256], got 4
// ASSIGN: tilec: error: kernel 'matmul': expected key=value, got 'block_m'
// NOTHING: tilec: error: give either --kernel=NAME or an input .mlir file
// SIZE: tilec: error: kernel 'matmul': 'm' must be in [1, inf], got 0
// HUGE: tilec: error: kernel 'vector_add': --size n=1000000000000 is over 2147483647 (2^31 - 1): tensor sizes are 32-bit on the GPU
// HUGE2: tilec: error: kernel 'vector_add': --size n=2147483648 is over 2147483647
// EMPTY: tilec: error: {{.*}}.empty.mlir defines no kernel (no func.func)
// TWO: tilec: error: {{.*}}two-kernels.mlir defines 2 kernels (a, b); tilec compiles one per file
// MISSING: tilec: error: cannot open input file '{{.*}}missing.mlir'
// SMEM: tilec: error: kernel 'flash_attention_fwd' needs {{[0-9]+}} bytes of shared memory; sm_90a allows at most 232448 (227 KiB) per block (smaller tiles or fewer --pipeline-stages)
