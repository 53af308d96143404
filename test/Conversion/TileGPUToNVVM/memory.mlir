// Shared buffers, cp.async groups, TMA and wgmma waits lower to NVVM ops
// (and an offset is required before lowering).
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>

// CHECK-LABEL: func.func @buffers
func.func @buffers(%i: i32) -> !tilegpu.smem<64x64xbf16, #swz> {
  // CHECK: %[[SMEM:.+]] = llvm.mlir.addressof @tilec_smem : !llvm.ptr<3>
  // CHECK: %[[OFF:.+]] = llvm.mlir.constant(2048 : i32)
  // CHECK: %[[RING:.+]] = llvm.getelementptr %[[SMEM]][%[[OFF]]]
  %ring = tilegpu.alloc {offset = 2048 : i64} : !tilegpu.smem<2x64x64xbf16, #swz>
  // One slot is 64 x 128 bytes.
  // CHECK: %[[SLOT:.+]] = llvm.mlir.constant(8192 : i32)
  // CHECK: %[[BYTES:.+]] = llvm.mul %{{.*}}, %[[SLOT]]
  // CHECK: llvm.getelementptr %[[RING]][%[[BYTES]]]
  %s = tilegpu.slot %ring[%i] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
  return %s : !tilegpu.smem<64x64xbf16, #swz>
}

// CHECK-LABEL: func.func @groups
func.func @groups() {
  // CHECK: nvvm.cp.async.commit.group
  %g = tilegpu.async_commit_group
  // CHECK: nvvm.cp.async.wait.group 1
  tilegpu.async_wait %g {pending = 1 : i32}
  // CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
  tilegpu.tma_store_wait {pending = 0 : i32}
  return
}

// CHECK-LABEL: func.func @tma
func.func @tma(%map: !tilegpu.tensor_map<1x64x64xbf16, #swz>, %bh: i32, %n: i32, %i: i32) {
  %c0 = arith.constant 0 : i32
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xbf16, #swz>
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 8192 : i64} : !tilegpu.mbarrier<2>
  // Coordinates innermost first, issued by one elected lane.
  // CHECK: %[[ELECT:.+]] = nvvm.elect.sync -> i1
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %{{.*}}, %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] predicate = %[[ELECT]]
  tilegpu.tma_load %map[%bh, %n, %c0], %s, %full[%i]
      : !tilegpu.tensor_map<1x64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<2>
  // CHECK: %[[ELECT2:.+]] = nvvm.elect.sync -> i1
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}], predicate = %[[ELECT2]]
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  tilegpu.tma_store %s, %map[%bh, %n, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  // Adding the box: the reduction has no predicate, so the elected lane
  // branches to it; the same commit group.
  // CHECK: %[[ELECT3:.+]] = nvvm.elect.sync -> i1
  // CHECK: scf.if %[[ELECT3]] {
  // CHECK-NEXT: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %{{.*}}, box[%{{.*}}, %{{.*}}, %{{.*}}] {redKind = #nvvm.tma_redux_kind<add>}
  // CHECK: nvvm.cp.async.bulk.commit.group
  tilegpu.tma_store add %s, %map[%bh, %n, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  return
}

// A 64x128 bf16 buffer under 128-byte swizzling is two column blocks: two
// copies of the 64x64 box, the second 8192 bytes on and 64 elements to the
// right (coordinates innermost first), under one elected lane.
// CHECK-LABEL: func.func @tma_column_blocks
func.func @tma_column_blocks(%map: !tilegpu.tensor_map<1x64x64xbf16, #swz>, %bh: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xbf16, #swz>
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 16384 : i64} : !tilegpu.mbarrier<1>
  // CHECK: %[[ELECT:.+]] = nvvm.elect.sync -> i1
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST:[^,]+]], %{{.*}}, %{{.*}}, box[%[[X0:[^,]+]], %{{.*}}, %{{.*}}] predicate = %[[ELECT]]
  // CHECK: %[[W:.+]] = llvm.mlir.constant(64 : i32)
  // CHECK: %[[X1:.+]] = llvm.add %[[X0]], %[[W]]
  // CHECK: %[[B:.+]] = llvm.mlir.constant(8192 : i32)
  // CHECK: %[[DST1:.+]] = llvm.getelementptr %[[DST]][%[[B]]]
  // CHECK: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DST1]], %{{.*}}, %{{.*}}, box[%[[X1]], %{{.*}}, %{{.*}}] predicate = %[[ELECT]]
  // CHECK-NOT: cp.async.bulk.tensor
  tilegpu.tma_load %map[%bh, %n, %c0], %s, %full[%c0]
      : !tilegpu.tensor_map<1x64x64xbf16, #swz>, !tilegpu.smem<64x128xbf16, #swz>, !tilegpu.mbarrier<1>
  return
}

// Stored from column blocks the same way: two copies, the second from 8192
// bytes on into 64 elements to the right, one commit group for both.
// CHECK-LABEL: func.func @tma_store_column_blocks
func.func @tma_store_column_blocks(%map: !tilegpu.tensor_map<1x64x64xbf16, #swz>, %bh: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x128xbf16, #swz>
  // CHECK: %[[ELECT:.+]] = nvvm.elect.sync -> i1
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[SRC:[^,]+]], box[%[[X0:[^,]+]], %{{.*}}, %{{.*}}], predicate = %[[ELECT]]
  // CHECK: %[[W:.+]] = llvm.mlir.constant(64 : i32)
  // CHECK: %[[X1:.+]] = llvm.add %[[X0]], %[[W]]
  // CHECK: %[[B:.+]] = llvm.mlir.constant(8192 : i32)
  // CHECK: %[[SRC1:.+]] = llvm.getelementptr %[[SRC]][%[[B]]]
  // CHECK: nvvm.cp.async.bulk.tensor.global.shared.cta %{{.*}}, %[[SRC1]], box[%[[X1]], %{{.*}}, %{{.*}}], predicate = %[[ELECT]]
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  // CHECK-NOT: cp.async.bulk
  tilegpu.tma_store %s, %map[%bh, %n, %c0] : !tilegpu.smem<64x128xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  // Added: both reductions under the elected lane's branch.
  // CHECK: scf.if
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, %[[SRC]], box[%[[Y0:[^,]+]],
  // CHECK: nvvm.cp.async.bulk.tensor.reduce %{{.*}}, box[
  // CHECK-NEXT: {{^ *}}}
  // CHECK-NEXT: nvvm.cp.async.bulk.commit.group
  tilegpu.tma_store add %s, %map[%bh, %n, %c0] : !tilegpu.smem<64x128xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  return
}

// CHECK-LABEL: func.func @dot_wait
func.func @dot_wait(%t: !tilegpu.dot_token<tensor<64x16xf32, #wgmma>>) -> tensor<64x16xf32, #wgmma> {
  // The accumulators (8 f32 per thread at 64x16) come back through an
  // empty asm after the wait.
  // CHECK: nvvm.wgmma.wait.group.sync.aligned 0
  // CHECK: llvm.inline_asm has_side_effects "", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7"
  // CHECK-SAME: -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  %acc = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x16xf32, #wgmma>>
  return %acc : tensor<64x16xf32, #wgmma>
}

// CHECK-LABEL: func.func @dot_wait_after
func.func @dot_wait_after(%t: !tilegpu.dot_token<tensor<64x16xf32, #wgmma>>,
                          %l: tensor<64x4xf32, #tilegpu.blocked<size_per_thread = [1, 1], threads = [16, 2], warps = [4, 1], order = [1, 0]>>) -> tensor<64x16xf32, #wgmma> {
  // The row sums' registers (2 per thread) go to stores under a predicate
  // no launch makes true, right before the wait.
  // CHECK: %[[L0:.+]] = llvm.extractvalue %{{.+}}[0] : !llvm.struct<(f32, f32)>
  // CHECK: %[[L1:.+]] = llvm.extractvalue %{{.+}}[1] : !llvm.struct<(f32, f32)>
  // CHECK: llvm.inline_asm has_side_effects "{{.*}}mov.u32 bytes, %dynamic_smem_size;{{.*}}setp.gt.u32 never, bytes, 0x7fffffff;{{.*}}@never st.shared.f32 [bytes], $0;{{.*}}@never st.shared.f32 [bytes], $1;{{.*}}", "f,f" %[[L0]], %[[L1]]
  // CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
  %acc = tilegpu.dot_wait %t after(%l : tensor<64x4xf32, #tilegpu.blocked<size_per_thread = [1, 1], threads = [16, 2], warps = [4, 1], order = [1, 0]>>) {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x16xf32, #wgmma>>
  return %acc : tensor<64x16xf32, #wgmma>
}

// -----

func.func @unplaced() {
  // expected-error @+2 {{'tilegpu.alloc' op expected an offset: run tilegpu-allocate-shared-memory first}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.alloc'}}
  %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

// Registers that hold consecutive elements of a row move as one vector of
// up to 16 bytes: the wgmma accumulator's column pairs as 4 bytes (32
// registers of a 64x64 tile, 16 stores and 16 loads), a blocked layout's 8
// elements a thread as 16 bytes into padded rows; threads along the row
// (no two consecutive elements in one thread) move one element each.
#swz = #tilegpu.swizzled<128>
#pad = #tilegpu.padded<16>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#rows8 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#lanes = #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @shared_vectors
func.func @shared_vectors(%acc: tensor<64x64xbf16, #wgmma>, %x: tensor<16x64xbf16, #rows8>,
                          %y: tensor<4x32xbf16, #lanes>) -> tensor<64x64xbf16, #wgmma> {
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x64xbf16, #swz>
  // CHECK-COUNT-16: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  tilegpu.local_store %acc, %s : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
  // CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> vector<2xbf16>
  // CHECK-NOT: llvm.load
  %r = tilegpu.local_load %s : !tilegpu.smem<64x64xbf16, #swz> -> tensor<64x64xbf16, #wgmma>
  %p = tilegpu.alloc {offset = 8192 : i64} : !tilegpu.smem<16x64xbf16, #pad>
  // CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
  // CHECK-NOT: llvm.store %{{.*}} vector
  tilegpu.local_store %x, %p : tensor<16x64xbf16, #rows8>, !tilegpu.smem<16x64xbf16, #pad>
  %q = tilegpu.alloc {offset = 12288 : i64} : !tilegpu.smem<4x32xbf16, #pad>
  // CHECK: llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr<3>
  // CHECK-NOT: llvm.store
  tilegpu.local_store %y, %q : tensor<4x32xbf16, #lanes>, !tilegpu.smem<4x32xbf16, #pad>
  return %r : tensor<64x64xbf16, #wgmma>
}

// -----

// local_store matrix: a warp stores four 8x8 blocks of bf16 by one
// stmatrix.x4; a 128x64 accumulator over two warpgroups holds 32 registers
// a thread, 16 words: four stmatrix (instead of 16 element-pair stores),
// each lane one row address.
#swz = #tilegpu.swizzled<128>
#wgmma2 = #tilegpu.wgmma<warpgroups = 2>
// CHECK-LABEL: func.func @by_matrix
// CHECK-COUNT-4: nvvm.stmatrix %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} {eltType = #nvvm.ld_st_matrix_elt_type<b16>, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>} : !llvm.ptr<3>, i32, i32, i32, i32
// CHECK-NOT: nvvm.stmatrix
// CHECK-NOT: llvm.store
func.func @by_matrix(%dsT: tensor<128x64xbf16, #wgmma2>) {
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<128x64xbf16, #swz>
  tilegpu.local_store matrix %dsT, %s : tensor<128x64xbf16, #wgmma2>, !tilegpu.smem<128x64xbf16, #swz>
  return
}

// -----

// In a swizzled buffer a register's offset is the thread's (register 0's)
// XOR a constant: bits no thread's offset has are added (row + 8: 1024),
// the others XORed (columns + 8, + 16, + 24 of f32: chunks 2, 4, 6 = 32,
// 64, 96 bytes, which the swizzle phase also moves). Eight stores of a
// 64x32 f32 accumulator, one thread offset, three XOR constants.
#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
// CHECK-LABEL: func.func @xor_linear
// CHECK: llvm.getelementptr %{{.+}}[%[[T:[0-9]+]]] : (!llvm.ptr<3>, i32)
// CHECK: %[[C1024:.+]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT: llvm.add %[[T]], %[[C1024]] : i32
// CHECK: %[[C32:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: llvm.xor %[[T]], %[[C32]] : i32
// CHECK: %[[C32B:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT: %[[X32:.+]] = llvm.xor %[[T]], %[[C32B]] : i32
// CHECK-NEXT: %[[C1024B:.+]] = llvm.mlir.constant(1024 : i32) : i32
// CHECK-NEXT: llvm.add %[[X32]], %[[C1024B]] : i32
// CHECK: %[[C64:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT: llvm.xor %[[T]], %[[C64]] : i32
// CHECK: %[[C96:.+]] = llvm.mlir.constant(96 : i32) : i32
// CHECK-NEXT: llvm.xor %[[T]], %[[C96]] : i32
// CHECK-COUNT-2: llvm.store
// CHECK-NOT: llvm.store
func.func @xor_linear(%dq: tensor<64x32xf32, #wgmma>) {
  %s = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<64x32xf32, #swz>
  tilegpu.local_store %dq, %s : tensor<64x32xf32, #wgmma>, !tilegpu.smem<64x32xf32, #swz>
  return
}
