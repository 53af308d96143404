// The driver's errors name the problem and what is accepted, and exit non-zero.
// RUN: not tilec --kernel=flash_attention 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tilec --kernel=matmul --set block_q=64 2>&1 | FileCheck %s --check-prefix=PARAM
// RUN: not tilec --kernel=matmul --set block_m=big 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not tilec --kernel=matmul --set block_m=4 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tilec --kernel=flash_attention_fwd --set head_dim=96 2>&1 | FileCheck %s --check-prefix=CHOICE
// RUN: not tilec --kernel=matmul --set block_m 2>&1 | FileCheck %s --check-prefix=ASSIGN
// RUN: not tilec 2>&1 | FileCheck %s --check-prefix=NOTHING
// RUN: not tilec --kernel=matmul --run=cpu --size m=0 2>&1 | FileCheck %s --check-prefix=SIZE
// RUN: not tilec %S/missing.mlir 2>&1 | FileCheck %s --check-prefix=MISSING

// UNKNOWN: tilec: error: unknown kernel 'flash_attention'; registered kernels: flash_attention_fwd, {{.*}}matmul
// PARAM: tilec: error: kernel 'matmul': unknown parameter 'block_q'; accepted: block_m, block_n, block_k
// PARAM: parameters of 'matmul':
// TYPE: tilec: error: kernel 'matmul': 'block_m' expects an integer, got 'big'
// RANGE: tilec: error: kernel 'matmul': 'block_m' must be in [16, 256], got 4
// CHOICE: tilec: error: kernel 'flash_attention_fwd': 'head_dim' expects one of 16, 32, 64, 128, 256, got '96'
// ASSIGN: tilec: error: kernel 'matmul': expected key=value, got 'block_m'
// NOTHING: tilec: error: give either --kernel=NAME or an input .mlir file
// SIZE: tilec: error: kernel 'matmul': 'm' must be in [1, inf], got 0
// MISSING: tilec: error: cannot open input file '{{.*}}missing.mlir'
