// tilegpu-pipeline-streams: a loop's block loads become N-slot cp.async
// rings, filled stages - 1 iterations ahead.
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams=stages=3 | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams=stages=1 | FileCheck %s --check-prefix=OFF
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams | FileCheck %s --check-prefix=TARGET
// RUN: echo 'module attributes {tilec.target = {pipeline_stages = 9 : i64}} {}' > %t.bad.mlir
// RUN: not tilec-opt %t.bad.mlir --tilegpu-pipeline-streams 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: tilegpu-pipeline-streams: stages must be at most 8, got 9

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// Register operands (mma.sync): padded rings read by local_load in the
// load's layout. Two prologue iterations (one commit group each, copies
// guarded by the bound); in the body: wait for this iteration's group
// (one still pending), issue two ahead, commit, read this slot.
// CHECK-LABEL: func.func @mma_loop
// CHECK-SAME: tilec.aligned_args = array<i64: 0, 1>
// CHECK-DAG: %[[RA:.*]] = tilegpu.alloc : !tilegpu.smem<3x64x32xbf16, #tilegpu.padded<16>>
// CHECK-DAG: %[[RB:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x64xbf16, #tilegpu.padded<16>>
// CHECK: scf.if
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_commit_group
// CHECK: scf.if
// CHECK-COUNT-2: tilegpu.async_copy
// CHECK: tilegpu.async_commit_group
// CHECK: scf.for %[[IV:[^ ]*]] =
// CHECK: %[[I:.*]] = arith.divui
// CHECK: %[[CUR:.*]] = arith.remui %[[I]], %c3
// CHECK: tilegpu.async_wait {pending = 1 : i32}
// CHECK: %[[AHEAD:.*]] = arith.addi %[[IV]],
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[AHEAD]], %{{.*}}
// CHECK: scf.if %[[IN]]
// CHECK: arith.addi %[[AHEAD]]
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_copy
// CHECK: tilegpu.async_commit_group
// CHECK-DAG: %[[SA:.*]] = tilegpu.slot %[[RA]][%[[CUR]]]
// CHECK-DAG: %[[SB:.*]] = tilegpu.slot %[[RB]][%[[CUR]]]
// CHECK: tilegpu.local_load %[[SA]] : {{.*}} -> tensor<64x32xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>
// CHECK: tilegpu.local_load %[[SB]] : {{.*}} -> tensor<32x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
// CHECK-NOT: tile.load_block
// CHECK: tilegpu.mma
// CHECK: }
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// OFF-LABEL: func.func @mma_loop
// OFF-NOT: async_copy
// OFF: tile.load_block
func.func @mma_loop(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %m: i32, %k: i32, %n: i32, %row: i32) -> tensor<64x64xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %sk = arith.constant 4096 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %da = tile.make_desc %pa, [%m, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<64x32xbf16>
  %db = tile.make_desc %pb, [%k, %n], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    // A coordinate computed from the induction variable: recomputed for
    // the iterations ahead.
    %col = arith.addi %i, %c0 : i32
    %a = tile.load_block %da[%row, %col] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16, #a>
    %b = tile.load_block %db[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %d = tilegpu.mma %a, %b, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b> -> tensor<64x64xf32, #acc>
    scf.yield %d : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// A wgmma's B staged in a loop buffer: the ring takes the buffer's place
// and encoding, the store that filled it goes. The stage count comes from
// tilec.target when not given (there 2, so nothing pending at the wait).
// CHECK-LABEL: func.func @wgmma_loop
// CHECK: %[[RING:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x64xbf16, #tilegpu.swizzled<128>>
// CHECK-NOT: tilegpu.alloc
// CHECK: scf.for
// CHECK: tilegpu.async_commit_group
// CHECK-NEXT: %[[S:.*]] = tilegpu.slot %[[RING]]
// CHECK-NOT: local_store
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %[[S]], %{{.*}} :
// TARGET-LABEL: func.func @wgmma_loop
// TARGET: tilegpu.alloc : !tilegpu.smem<2x32x64xbf16, #tilegpu.swizzled<128>>
// TARGET: tilegpu.async_wait {pending = 0 : i32}
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @wgmma_loop(%pb: !tile.ptr<bf16>, %a: tensor<64x32xbf16, #a>, %k: i32, %n: i32) -> tensor<64x64xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %sk = arith.constant 4096 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %buf = tilegpu.alloc : !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>
  %db = tile.make_desc %pb, [%k, %n], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %b = tile.load_block %db[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #bl>
    tilegpu.local_store %b, %buf : tensor<32x64xbf16, #bl>, !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>
    %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #acc>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
    scf.yield %d : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}
}

// -----

#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// Not streamed: a coordinate carried by the loop, a descriptor whose base
// is not a kernel argument, a block with a unit dimension, rows of 8 bytes,
// NaN padding (the copies fill with zeros).
// CHECK-LABEL: func.func @not_streamed
// CHECK-NOT: async_copy
// CHECK-NOT: tilec.aligned_args
// CHECK-COUNT-5: tile.load_block
func.func @not_streamed(%p: !tile.ptr<bf16>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %sk = arith.constant 4096 : i64
  %off = arith.constant 64 : i64
  %d = tile.make_desc %p, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %q = tile.addptr %p, %off : !tile.ptr<bf16>, i64
  %dq = tile.make_desc %q, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %du = tile.make_desc %p, [%k, %k, %k], [%sk, %sk, %s1] : !tile.ptr<bf16> -> !tile.desc<1x32x64xbf16>
  %dn = tile.make_desc %p, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x4xbf16>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%row = %c0) -> (i32) : i32 {
    %x = tile.load_block %d[%row, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %y = tile.load_block %dq[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %u = tile.load_block %du[%c0, %i, %c0] : !tile.desc<1x32x64xbf16> -> tensor<1x32x64xbf16, #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>>
    %z = tile.load_block %dn[%i, %c0] : !tile.desc<32x4xbf16> -> tensor<32x4xbf16, #tilegpu.blocked<size_per_thread = [1, 1], threads = [8, 4], warps = [4, 1], order = [1, 0]>>
    %w = tile.load_block %d[%i, %c0] padding = nan : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %next = arith.addi %row, %c32 : i32
    scf.yield %next : i32
  }
  return
}

