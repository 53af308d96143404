// mma.sync and wgmma lower to nvvm.mma.sync and nvvm.wgmma.mma_async.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

#acc = #tilegpu.mma<warps = [4, 1]>
#opA = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#opB = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>

// 64x32 += 64x32 · 32x32 on four warps along M: each warp does four 16x8
// tiles, two K steps each, bf16 pairs in i32.
// CHECK-LABEL: func.func @mma
// CHECK-COUNT-8: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
func.func @mma(%a: tensor<64x32xbf16, #opA>, %b: tensor<32x32xbf16, #opB>,
               %c: tensor<64x32xf32, #acc>) -> tensor<64x32xf32, #acc> {
  %d = tilegpu.mma %a, %b, %c : tensor<64x32xbf16, #opA>, tensor<32x32xbf16, #opB> -> tensor<64x32xf32, #acc>
  return %d : tensor<64x32xf32, #acc>
}

// f16 operands stay vector<2xf16>.
// CHECK-LABEL: func.func @mma_f16
// CHECK: nvvm.mma.sync {{.*}} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
func.func @mma_f16(%a: tensor<64x16xf16, #opA>, %b: tensor<16x8xf16, #opB>,
                   %c: tensor<64x8xf32, #acc>) -> tensor<64x8xf32, #acc> {
  %d = tilegpu.mma %a, %b, %c : tensor<64x16xf16, #opA>, tensor<16x8xf16, #opB> -> tensor<64x8xf32, #acc>
  return %d : tensor<64x8xf32, #acc>
}

// S = Q·Kᵀ with K stored keys x d (K-major B): four k16 steps over d = 64,
// B from 32 bytes further on each step; one fence, one commit group. Each
// step's descriptors are the buffers' plus the step's offset >> 4, added by
// an asm with side effects right before the step (LLVM cannot hoist every
// step's descriptor of a loop-invariant buffer out of a loop and keep them
// all in registers).
// CHECK-LABEL: func.func @qk
// CHECK: %[[B0:.*]] = llvm.or {{.*}} : i64
// CHECK: %[[A0:.*]] = llvm.or {{.*}} : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async %[[A0]], %[[B0]], {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK: %[[B1:.*]] = llvm.inline_asm has_side_effects "add.s64 $0, $1, 2;", "=l,l" %[[B0]]
// CHECK: %[[A1:.*]] = llvm.inline_asm has_side_effects "add.s64 $0, $1, 2;", "=l,l" %[[A0]]
// CHECK: nvvm.wgmma.mma_async %[[A1]], %[[B1]]
// CHECK-COUNT-2: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.wait
func.func @qk(%q: !tilegpu.smem<64x64xbf16, #swz>, %k: !tilegpu.smem<128x64xbf16, #swz>,
              %s: tensor<64x128xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x128xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %q, %k, %s transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz>, tensor<64x128xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x128xf32, #wgmma>>
}

// O += P·V with V stored keys x d (MN-major B, transposed): eight k16 steps
// over 128 keys, 16 rows (2048 bytes) further on each.
// CHECK-LABEL: func.func @pv
// CHECK-COUNT-8: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <row>]
// CHECK-NOT: nvvm.wgmma.mma_async
func.func @pv(%p: !tilegpu.smem<64x128xbf16, #swz>, %v: !tilegpu.smem<128x64xbf16, #swz>,
              %o: tensor<64x64xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x64xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %p, %v, %o
      : !tilegpu.smem<64x128xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
}

// -----

#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
#swz = #tilegpu.swizzled<128>
// O += P·V with P in registers (attention's second dot): wgmma as inline
// PTX, four bf16x2 words of P per k16 step, V transposed (imm-trans-b 1).
// CHECK-LABEL: func.func @a_in_registers
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: llvm.inline_asm has_side_effects {{.*}}wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, {$32, $33, $34, $35}, $36, p, 1, 1, 1;{{.*}}"=f,{{.*}},r,r,r,r,l,r,0,1,
// CHECK: nvvm.wgmma.commit.group.sync.aligned
func.func @a_in_registers(%p: tensor<64x64xbf16, #wgmmaA>, %v: !tilegpu.smem<64x64xbf16, #swz>,
                          %o: tensor<64x64xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x64xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %p, %v, %o
      : tensor<64x64xbf16, #wgmmaA>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
}

// -----

#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
// A chain (a sum over K in two parts): the second dot's steps start from
// the first's accumulators in flight (its wgmma results, repacked) — no
// wait between the groups — and its first step adds onto them (scale-d one).
// CHECK-LABEL: func.func @chained
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma.wait
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NOT: nvvm.wgmma.wait
// CHECK: nvvm.wgmma.mma_async {{.*}}, <m = 64, n = 64, k = 16>, D[<f32>, <one>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT: nvvm.wgmma
func.func @chained(%q0: !tilegpu.smem<64x64xbf16, #swz>, %q1: !tilegpu.smem<64x64xbf16, #swz>,
                   %k0: !tilegpu.smem<64x64xbf16, #swz>, %k1: !tilegpu.smem<64x64xbf16, #swz>)
    -> !tilegpu.dot_token<tensor<64x64xf32, #wgmma>> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #wgmma>
  %t0 = tilegpu.warpgroup_dot %q0, %k0, %zero transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
  %t1 = tilegpu.warpgroup_dot %q1, %k1, %t0 transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
  return %t1 : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
}

// -----

#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
// From a zero accumulator, the first step ignores D (scale-d zero).
// CHECK-LABEL: func.func @from_zero
// CHECK: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <zero>]
// CHECK-COUNT-3: nvvm.wgmma.mma_async {{.*}}, D[<f32>, <one>]
func.func @from_zero(%q: !tilegpu.smem<64x64xbf16, #swz>, %k: !tilegpu.smem<64x64xbf16, #swz>)
    -> !tilegpu.dot_token<tensor<64x64xf32, #wgmma>> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #wgmma>
  %t = tilegpu.warpgroup_dot %q, %k, %zero transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
}

// -----

#swz = #tilegpu.swizzled<128>
#wgmma2 = #tilegpu.wgmma<warpgroups = 2>
// Two warpgroups read their own 64 rows of A: the row offset is the
// warpgroup index (%tid.x >> 7) read from lane 0 by a shuffle, so that ptxas
// knows it is warp-uniform and keeps A's descriptors in uniform registers
// (without it: one R2UR per wgmma in the attention loops, 6-13 % more
// instructions there).
// CHECK-LABEL: func.func @two_warpgroups
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[WG:.+]] = llvm.lshr %[[TID]], %{{.+}} : i32
// CHECK: %[[UNIFORM:.+]] = nvvm.shfl.sync idx %{{.+}}, %[[WG]], %{{.+}}, %{{.+}} : i32 -> i32
// CHECK: llvm.mul %[[UNIFORM]], %{{.+}} : i32
// CHECK: nvvm.wgmma.mma_async
func.func @two_warpgroups(%q: !tilegpu.smem<128x64xbf16, #swz>, %k: !tilegpu.smem<64x64xbf16, #swz>,
                          %s: tensor<128x64xf32, #wgmma2>) -> !tilegpu.dot_token<tensor<128x64xf32, #wgmma2>> {
  %t = tilegpu.warpgroup_dot %q, %k, %s transpose_b
      : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<128x64xf32, #wgmma2>
  return %t : !tilegpu.dot_token<tensor<128x64xf32, #wgmma2>>
}

// -----

#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
#swz64 = #tilegpu.swizzled<64>
#swz32 = #tilegpu.swizzled<32>
// B with rows of 64 or 32 bytes (a head dim's 32- or 16-column tile):
// descriptors of that swizzle mode (bits 62-63: 2 for 64 bytes, 3 for 32),
// K-major with 8-row atoms 8 rows apart (stride offset 8 x 64 = 512 bytes,
// field 32; leading offset unused, 1), N-major with 128 rows per column
// block (leading offset 128 x 64 = 8192 bytes, field 512) and each k16 step
// 16 rows (1024 bytes, 64 >> 4) further on.
// CHECK-LABEL: func.func @narrow_k_major
// CHECK: llvm.mlir.constant(-9223371899415756800 : i64)
// CHECK: nvvm.wgmma.fence.aligned
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0;
// CHECK: llvm.inline_asm has_side_effects "add.s64 $0, $1, 2;"
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 0;
// CHECK-NOT: wgmma.mma_async
func.func @narrow_k_major(%q: tensor<64x32xbf16, #wgmmaA>, %k: !tilegpu.smem<128x32xbf16, #swz64>,
                          %s: tensor<64x128xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x128xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %q, %k, %s transpose_b
      : tensor<64x32xbf16, #wgmmaA>, !tilegpu.smem<128x32xbf16, #swz64>, tensor<64x128xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x128xf32, #wgmma>>
}

// CHECK-LABEL: func.func @narrow_n_major
// CHECK: llvm.mlir.constant(-9223371899382267904 : i64)
// CHECK: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {{.*}}, p, 1, 1, 1;
// CHECK: llvm.inline_asm has_side_effects "add.s64 $0, $1, 64;"
// CHECK: wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16
// CHECK: llvm.inline_asm has_side_effects "add.s64 $0, $1, 128;"
func.func @narrow_n_major(%p: tensor<64x128xbf16, #wgmmaA>, %v: !tilegpu.smem<128x32xbf16, #swz64>,
                          %o: tensor<64x32xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x32xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %p, %v, %o
      : tensor<64x128xbf16, #wgmmaA>, !tilegpu.smem<128x32xbf16, #swz64>, tensor<64x32xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x32xf32, #wgmma>>
}

// CHECK-LABEL: func.func @narrow_32_bytes
// CHECK: llvm.mlir.constant(-4611685949707845632 : i64)
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK-NOT: wgmma.mma_async
func.func @narrow_32_bytes(%q: tensor<64x16xbf16, #wgmmaA>, %k: !tilegpu.smem<64x16xbf16, #swz32>,
                           %s: tensor<64x64xf32, #wgmma>) -> !tilegpu.dot_token<tensor<64x64xf32, #wgmma>> {
  %t = tilegpu.warpgroup_dot %q, %k, %s transpose_b
      : tensor<64x16xbf16, #wgmmaA>, !tilegpu.smem<64x16xbf16, #swz32>, tensor<64x64xf32, #wgmma>
  return %t : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
}

// -----

#swz = #tilegpu.swizzled<128>
#swz64 = #tilegpu.swizzled<64>
#cols = #tilegpu.wgmma<warpgroups = 1, columns = 2>
// Column blocks: each warpgroup runs m64n64 on its own 64 columns of B.
// B (K x N, N contiguous) starts one 128-byte column block (128 rows of
// 128 bytes) further per warpgroup index; A is stored transposed (K x M,
// M contiguous: transpose_a, NVVM's column-major A), its descriptor the
// N-major one (column blocks 128 rows x 128 bytes apart, 8-row atoms 1024
// bytes apart: 4611686293372403712 = 1 << 62 | 64 << 32 | 1024 << 16), a
// K step 16 rows further (2048 bytes: 128 in the address field).
// CHECK-LABEL: func.func @column_blocks
// CHECK: %[[WG:.+]] = nvvm.shfl.sync idx
// CHECK: %[[BLOCK:.+]] = llvm.mlir.constant(16384 : i32) : i32
// CHECK: %[[OFF:.+]] = llvm.mul %[[WG]], %[[BLOCK]] : i32
// CHECK: %[[B:.+]] = llvm.ptrtoint %arg1
// CHECK: llvm.add %[[B]], %[[OFF]] : i32
// CHECK: llvm.mlir.constant(4611686293372403712 : i64)
// CHECK: nvvm.wgmma.mma_async {{.+}} <m = 64, n = 64, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <col>], B[<bf16>, <one>, <row>]
// CHECK: "add.s64 $0, $1, 128;"
// CHECK-COUNT-7: <m = 64, n = 64, k = 16>
// CHECK-NOT: nvvm.wgmma.mma_async
func.func @column_blocks(%dsT: !tilegpu.smem<128x64xbf16, #swz>, %k: !tilegpu.smem<128x128xbf16, #swz>,
                         %dq: tensor<64x128xf32, #cols>) -> !tilegpu.dot_token<tensor<64x128xf32, #cols>> {
  %t = tilegpu.warpgroup_dot %dsT, %k, %dq transpose_a
      : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<128x128xbf16, #swz>, tensor<64x128xf32, #cols>
  return %t : !tilegpu.dot_token<tensor<64x128xf32, #cols>>
}

// Blocks of 32 columns from a 64-byte-swizzled B: the second warpgroup's
// block is the buffer's second column block, 128 rows x 64 bytes further.
// CHECK-LABEL: func.func @narrow_column_blocks
// CHECK: %[[WG:.+]] = nvvm.shfl.sync idx
// CHECK: %[[BLOCK:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK: llvm.mul %[[WG]], %[[BLOCK]] : i32
// CHECK: <m = 64, n = 32, k = 16>
func.func @narrow_column_blocks(%a: !tilegpu.smem<64x128xbf16, #swz>, %k: !tilegpu.smem<128x64xbf16, #swz64>,
                                %dq: tensor<64x64xf32, #cols>) -> !tilegpu.dot_token<tensor<64x64xf32, #cols>> {
  %t = tilegpu.warpgroup_dot %a, %k, %dq
      : !tilegpu.smem<64x128xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz64>, tensor<64x64xf32, #cols>
  return %t : !tilegpu.dot_token<tensor<64x64xf32, #cols>>
}
