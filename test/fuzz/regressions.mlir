// Inputs the mutation fuzzer (scripts/fuzz.py) once crashed tilec-opt or
// tilec on: each now gets a located error. scripts/fuzz.py replays them
// before its mutants; here each must fail cleanly (an error, no crash).
// RUN: not tilec-opt %S/regressions/dot-token-huge-tile.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOKEN
// RUN: not tilec-opt %S/regressions/operand-layout-huge-tile.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPERAND
// A layout over a 2^38-element tile was verified element by element (out of memory).
// TOKEN: dot-token-huge-tile.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected a tile of at most 2^24 elements for a distributed layout, got 4294967296x64
// TOKEN-NOT: PLEASE submit
// OPERAND: operand-layout-huge-tile.mlir:{{[0-9]+}}:{{[0-9]+}}: error: expected a tile of at most 2^24 elements for a distributed layout, got 4294967296x64
// OPERAND-NOT: PLEASE submit
// RUN: not tilec-opt %S/regressions/blocked-huge-size-per-thread.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not tilec-opt %S/regressions/blocked-huge-warps.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARPS
// A blocked layout of 2^31 elements per thread, or 2^18 warps, took minutes to verify.
// SIZES: blocked-huge-size-per-thread.mlir:4:23: error: expected size_per_thread to multiply to at most 256
// WARPS: blocked-huge-warps.mlir:4:23: error: expected warps to multiply to at most 32 (1024 threads)
// RUN: not tilec-opt %S/regressions/mma-operand-huge-warps.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=MMA
// MMA: mma-operand-huge-warps.mlir:6:26: error: expected at most 32 warps (1024 threads) in the warp grid, got [4, 65536]
// RUN: not tilec-opt %S/regressions/dense-array-of-index.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tilec %S/regressions/dense-array-of-index.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not tilec-opt %S/regressions/blocked-65536-per-thread.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERTHREAD
// array<index: ...> crashes MLIR 22's own parser (mlir-opt too): refused before parsing.
// INDEX: dense-array-of-index.mlir:5:52: error: dense arrays of 'index' are not supported (MLIR's parser crashes on them); use i32 or i64 elements
// A blocked layout of 65536 elements per thread took over 10 s to verify.
// PERTHREAD: blocked-65536-per-thread.mlir:13:23: error: expected size_per_thread to multiply to at most 256
// RUN: not tilec-opt %S/regressions/huge-result-number.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not tilec %S/regressions/huge-result-number.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESULT
// A result number of 2^31 made MLIR's parser run out of memory: refused before parsing.
// RESULT: huge-result-number.mlir:12:43: error: result number 2147483648 is over 65535 (MLIR's parser runs out of memory on such numbers)
// RESULT-NOT: PLEASE submit
// RUN: not tilec %S/regressions/hopper-op-on-sm80.mlir --arch=sm_80 --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=HOPPER
// HOPPER: hopper-op-on-sm80.mlir:6:3: error: 'nvvm.fence.mbarrier.init' needs a newer GPU than sm_80
// HOPPER-NOT: PLEASE submit
// RUN: not tilec %S/regressions/nvvm-op-at-module-level.mlir --arch=sm_80 --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOPLEVEL
// An NVVM op outside any function crashed the translation to LLVM IR.
// TOPLEVEL: nvvm-op-at-module-level.mlir:8:2: error: expected only the kernel's func.func at the top level of the module, got 'nvvm.wgmma.commit.group.sync.aligned'
