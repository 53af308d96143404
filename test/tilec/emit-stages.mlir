// Each --emit stage of the driver, and its errors.
// RUN: tilec --kernel=matmul --emit=gpu | FileCheck %s --check-prefix=GPU
// RUN: tilec --kernel=matmul --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: tilec --kernel=matmul --emit=llvm-ir | FileCheck %s --check-prefix=IR
// RUN: tilec --kernel=matmul --arch=sm_90a --num-warps=8 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.json
// RUN: tilec --kernel=vector_add --emit=ptx --dump-ir-dir=%t.dump -o %t.va.ptx
// RUN: ls %t.dump | FileCheck %s --check-prefix=DUMP
// RUN: tilec --kernel=vector_add --emit=ptx --pass-timing -o %t.va2.ptx 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: tilec %S/../../examples/tile-ir/01-vector-add.mlir --emit=ptx -o %t.file.ptx
// RUN: FileCheck %s --check-prefix=FILEMETA < %t.file.json
// RUN: tilec --kernel=flash_attention_fwd --assume-aligned --emit=ptx -o %t.al.ptx
// RUN: FileCheck %s --check-prefix=ALIGNED < %t.al.json
// RUN: tilec --kernel=flash_attention_fwd_document --emit=ptx -o %t.doc.ptx
// RUN: FileCheck %s --check-prefix=UNIT < %t.doc.json
// RUN: not tilec --kernel=matmul --arch=sm_70 --emit=ptx 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not tilec --kernel=matmul --num-warps=3 --emit=ptx 2>&1 | FileCheck %s --check-prefix=WARPS
// RUN: not tilec --kernel=matmul --emit=cubin 2>&1 | FileCheck %s --check-prefix=CUBIN

// GPU: #linear{{[0-9]*}} = #tilegpu.linear<reg =
// GPU: tile.dot {{.*}} -> tensor<64x64xf32, #linear{{[0-9]*}}>
// LLVM: llvm.func @matmul({{.*}}nvvm.kernel
// LLVM: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// IR: define ptx_kernel void @matmul(
// PTX: .target sm_90a
// PTX: .entry matmul(
// PTX: .reqntid 256, 1, 1
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// META: "kernel": "matmul",
// META: "arch": "sm_90a",
// META: "num_warps": 8,
// META: "threads_per_block": 256,
// META: "params": [
// META-NEXT: {"name":"a","kind":"tensor","dtype":"bf16","rank":2,"aligned":false},
// META: "function_args": ["!llvm.ptr<1>","i32","i32","i64","i64",
// META: "grid": [
// META-NEXT: {"param":"a","axis":0,"divisor":64},
// META-NEXT: {"param":"b","axis":1,"divisor":64},
// META-NEXT: {"constant":1}
// META-NEXT: ]
// DUMP: builtin_module_no-symbol-name
// TIMING: Execution time report
// TIMING: tilec: PTX done after
// ARCH: tilec: error: unsupported --arch 'sm_70'; accepted: sm_80, sm_90a
// WARPS: tilec: error: --num-warps must be a power of two in [1, 32], got 3
// CUBIN: tilec: error: --emit=cubin needs -o FILE.cubin
// FILEMETA: "params": [
// FILEMETA-NEXT: {"name":"arg0","kind":"pointer","dtype":"f32","rank":0},
// FILEMETA-NEXT: {"name":"arg1","kind":"pointer","dtype":"f32","rank":0},
// FILEMETA-NEXT: {"name":"arg2","kind":"pointer","dtype":"f32","rank":0},
// FILEMETA-NEXT: {"name":"arg3","kind":"scalar","dtype":"i32","rank":0}
// FILEMETA-NEXT: ],
// FILEMETA: "grid": null
// ALIGNED: {"name":"q","kind":"tensor","dtype":"bf16","rank":3,"aligned":true,"sizes":[null,null,64]},
// ALIGNED: {"name":"lse","kind":"tensor","dtype":"f32","rank":2,"aligned":false}
// A variant's input is read with innermost stride 1 (its stride argument
// is unused): launches must pass that.
// UNIT: {"name":"lse","kind":"tensor","dtype":"f32","rank":2,"aligned":false}
// UNIT-NEXT: {"name":"block_counts","kind":"tensor","dtype":"i32","rank":3,"aligned":false}
// UNIT-NEXT: {"name":"blocks","kind":"tensor","dtype":"i32","rank":3,"aligned":false}
// UNIT-NEXT: {"name":"doc","kind":"tensor","dtype":"i32","rank":2,"aligned":false,"unit_stride":true}
// ALIGNED: "grid": [
// ALIGNED-NEXT: {"param":"q","axis":1,"divisor":128},
// ALIGNED-NEXT: {"param":"q","axis":0,"divisor":1},
// ALIGNED-NEXT: {"constant":1}
// The kernel chooses its warps (and where Q lives) unless the command line says.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --emit=ptx -o %t.w4.ptx
// RUN: FileCheck %s --check-prefix=WARPS4 < %t.w4.json
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --num-warps=8 --emit=ptx -o %t.w8.ptx
// RUN: FileCheck %s --check-prefix=WARPS8 < %t.w8.json
// WARPS4: "num_warps": 4,
// WARPS8: "num_warps": 8,

// A packed batch's kernels take one program per sequence: the offsets'
// size less one.
// RUN: tilec --kernel=flash_attention_varlen_bwd_dkdv_causal --emit=ptx -o %t.varlen.ptx
// RUN: FileCheck %s --check-prefix=SEQUENCES < %t.varlen.json
// SEQUENCES: "grid": [
// SEQUENCES-NEXT: {"param":"max_seqlen_k","divisor":64},
// SEQUENCES-NEXT: {"param":"k","axis":0,"divisor":1},
// SEQUENCES-NEXT: {"param":"cu_seqlens_k","axis":0,"divisor":1,"less":1}
