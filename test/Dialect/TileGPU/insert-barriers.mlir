// Fences and barriers where shared memory written by some threads is read
// by others (or by the async proxy), and nowhere else. Running the pass
// again adds nothing, and a kernel that is already synchronized is left as
// it is.
// RUN: tilec-opt %s --tilegpu-insert-barriers | FileCheck %s
// RUN: tilec-opt %s --tilegpu-insert-barriers -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir --tilegpu-insert-barriers -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: tilec-opt %S/../../gpu/tilegpu/gemm_tile.mlir -o %t.gemm.mlir
// RUN: tilec-opt %S/../../gpu/tilegpu/gemm_tile.mlir --tilegpu-insert-barriers -o %t.gemm.placed.mlir
// RUN: diff %t.gemm.mlir %t.gemm.placed.mlir

#pad = #tilegpu.padded<16>
#swz = #tilegpu.swizzled<128>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#wgmma = #tilegpu.wgmma<warpgroups = 1>

// Written, then read by other threads: a barrier between.
// CHECK-LABEL: func.func @read_after_write
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
func.func @read_after_write(%x: tensor<16x64xbf16, #blocked>) -> tensor<16x64xbf16, #blocked> {
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  return %y : tensor<16x64xbf16, #blocked>
}

// Read, then overwritten: a barrier between (others may still read).
// CHECK-LABEL: func.func @write_after_read
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
func.func @write_after_read(%x: tensor<16x64xbf16, #blocked>, %a: !tilegpu.smem<16x64xbf16, #pad>)
    -> tensor<16x64xbf16, #blocked> {
  %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return %y : tensor<16x64xbf16, #blocked>
}

// Other buffers: nothing to order.
// CHECK-LABEL: func.func @independent
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @independent(%x: tensor<16x64xbf16, #blocked>, %a: !tilegpu.smem<16x64xbf16, #pad>,
                       %b: !tilegpu.smem<16x64xbf16, #pad>) -> tensor<16x64xbf16, #blocked> {
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %b : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  return %y : tensor<16x64xbf16, #blocked>
}

// Slots of one ring are one buffer (conservatively).
// CHECK-LABEL: func.func @slots
// CHECK: tilegpu.local_store
// CHECK: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
func.func @slots(%x: tensor<16x64xbf16, #blocked>, %i: i32, %j: i32) -> tensor<16x64xbf16, #blocked> {
  %ring = tilegpu.alloc : !tilegpu.smem<2x16x64xbf16, #pad>
  %s = tilegpu.slot %ring[%i] : !tilegpu.smem<2x16x64xbf16, #pad> -> !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %s : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %t = tilegpu.slot %ring[%j] : !tilegpu.smem<2x16x64xbf16, #pad> -> !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %t : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  return %y : tensor<16x64xbf16, #blocked>
}

// Read by wgmma (the async proxy): fenced first; in the second role of a
// warp_specialize the barrier is named 2, over its 128 threads.
// CHECK-LABEL: func.func @async_reader_in_role
// CHECK: role warps = 4 registers = 232 {
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[ID]], 128
// CHECK-NEXT: tilegpu.warpgroup_dot
func.func @async_reader_in_role(%p: tensor<64x64xbf16, #wgmma>, %b: !tilegpu.smem<64x64xbf16, #swz>,
                                %o: tensor<64x64xf32, #wgmma>) {
  %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      tilegpu.local_store %p, %a : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      %t = tilegpu.warpgroup_dot %a, %b, %o transpose_b
          : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
    }
  return
}

// A named barrier whose id depends on the thread (tilegpu-ping-pong's
// turns: one warpgroup waits, another only arrives) does not order a
// write before other threads' reads: the role's own barrier still goes in.
// CHECK-LABEL: func.func @turn_barrier_is_not_the_roles
// CHECK: tilegpu.barrier_sync %{{.*}}, 256
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[ID]], 128
// CHECK-NEXT: tilegpu.warpgroup_dot
func.func @turn_barrier_is_not_the_roles(%p: tensor<64x64xbf16, #wgmma>, %b: !tilegpu.smem<64x64xbf16, #swz>,
                                         %o: tensor<64x64xf32, #wgmma>) {
  %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      tilegpu.local_store %p, %a : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      %wg = tilegpu.warpgroup_id : i32
      tilegpu.barrier_sync %wg, 256
      %t = tilegpu.warpgroup_dot %a, %b, %o transpose_b
          : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
    }
  return
}

// A barrier inside a branch is not one of the group (not every thread runs
// it): a write before it in the branch is still pending after the branch,
// so the role's barrier goes before the read.
// CHECK-LABEL: func.func @branch_barrier_is_not_the_groups
// CHECK: scf.if
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 128
// CHECK-NEXT: }
// CHECK-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[ID]], 128
// CHECK-NEXT: tilegpu.local_load
func.func @branch_barrier_is_not_the_groups(%x: tensor<16x64xbf16, #blocked>, %c: i1) {
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      %id = arith.constant 2 : i32
      scf.if %c {
        tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
        tilegpu.barrier_sync %id, 128
      }
      %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
    }
  return
}

// A loop whose body writes what its next iteration reads publishes it at
// the end of the body (no fence: nothing reads it through the async
// proxy), so nothing is pending after the loop.
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: }
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @loop(%x: tensor<16x64xbf16, #blocked>, %a: !tilegpu.smem<16x64xbf16, #pad>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
    tilegpu.local_store %y, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  }
  return
}

// cp.async writes land at the async_wait that completes them: in a loop
// that reads a slot and then refills it for the next iteration, the barrier
// goes after the wait (before the read: other threads' copies landed
// there), and before the copy (others may still read what it overwrites);
// the body leaves nothing to publish at its end. sm_80 (no async-proxy
// reader in the kernel): no proxy fence.
// CHECK-LABEL: func.func @copy_lands_at_wait
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: scf.yield
// CHECK-NOT: fence
func.func @copy_lands_at_wait(%d: !tile.desc<64x64xbf16>, %n: i32) -> tensor<64x64xbf16, #blocked> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xbf16, #blocked>
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
  %t = tilegpu.async_copy %d[%c0, %c0], %buf : !tile.desc<64x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
  %g = tilegpu.async_commit_group(%t)
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%last = %zero) -> (tensor<64x64xbf16, #blocked>) : i32 {
    tilegpu.async_wait {pending = 0 : i32}
    %x = tilegpu.local_load %buf : !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>> -> tensor<64x64xbf16, #blocked>
    %u = tilegpu.async_copy %d[%i, %c0], %buf : !tile.desc<64x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
    %h = tilegpu.async_commit_group(%u)
    scf.yield %x : tensor<64x64xbf16, #blocked>
  }
  return %r : tensor<64x64xbf16, #blocked>
}

// A loop that stages B for wgmma: fence + barrier between the store and
// the wgmma; the wgmma reads until its dot_wait, so the body ends with a
// barrier before the next iteration overwrites B.
// CHECK-LABEL: func.func @wgmma_reads_until_wait
// CHECK: scf.for
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.dot_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.yield
func.func @wgmma_reads_until_wait(%a: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<64x64xbf16, #blocked>, %n: i32) -> tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) : i32 {
    tilegpu.local_store %b, %buf : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
    %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
    scf.yield %d : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  }
  return %r : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
}

// B staged, then a layout conversion's store and load (their barrier has
// no fence: nothing async reads the scratch), then the wgmma reading B: the
// barrier published B to the other threads, not to the async proxy, so
// the wgmma still needs the fence and a barrier (session 30: the row
// groups' last P·V read stale V without it).
// CHECK-LABEL: func.func @staged_then_converted
// CHECK: tilegpu.local_store %{{.+}}, %[[B:.+]] :
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.warpgroup_dot %{{.+}}, %[[B]],
func.func @staged_then_converted(%a: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<64x64xbf16, #blocked>, %x: tensor<16x64xbf16, #blocked>, %acc: tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) -> (tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>, tensor<16x64xbf16, #blocked>) {
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  tilegpu.local_store %b, %buf : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %scratch = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %scratch : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %scratch : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
  return %d, %y : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>, tensor<16x64xbf16, #blocked>
}

// B staged before a loop whose wgmma reads it, a barrier between (the
// conversion's): fenced once, before the loop, not in every iteration.
// CHECK-LABEL: func.func @staged_before_loop
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: tilegpu.fence
// CHECK: scf.yield
func.func @staged_before_loop(%a: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<64x64xbf16, #blocked>, %x: tensor<16x64xbf16, #blocked>, %n: i32) -> (tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>, tensor<16x64xbf16, #blocked>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  tilegpu.local_store %b, %buf : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %scratch = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %scratch : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %scratch : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) : i32 {
    %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
    scf.yield %d : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  }
  return %r, %y : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>, tensor<16x64xbf16, #blocked>
}

// The next iteration's wgmma reads B, written late in this one and
// published by a conversion's plain barrier: the body ends with the fence
// and a barrier.
// CHECK-LABEL: func.func @staged_for_next_iteration
// CHECK: scf.for
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.yield
func.func @staged_for_next_iteration(%a: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<64x64xbf16, #blocked>, %x: tensor<16x64xbf16, #blocked>, %n: i32) -> tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %scratch = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) : i32 {
    %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
    tilegpu.local_store %b, %buf : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
    tilegpu.local_store %x, %scratch : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
    %y = tilegpu.local_load %scratch : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
    scf.yield %d : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  }
  return %r : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
}

// A TMA ring in a loop: this iteration's wgmma reads the slot, a later
// iteration's copy (one thread, async proxy) overwrites it, so the body ends
// with a barrier; the copy's landing needs none (each thread waits on the
// mbarrier itself), so there is no barrier before the reads.
// CHECK-LABEL: func.func @tma_ring_loop
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.tma_load
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.dot_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.yield
func.func @tma_ring_loop(%map: !tilegpu.tensor_map<64x64xbf16, #swz>, %a: !tilegpu.smem<64x64xbf16, #swz>,
                         %ring: !tilegpu.smem<2x64x64xbf16, #swz>, %n: i32, %acc0: tensor<64x64xf32, #wgmma>) -> tensor<64x64xf32, #wgmma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #wgmma>) : i32 {
    tilegpu.mbarrier_wait %full[%c0], %i : !tilegpu.mbarrier<2>
    %next = tilegpu.slot %ring[%c1] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
    tilegpu.tma_load %map[%i, %c0], %next, %full[%c1] : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<2>
    %s = tilegpu.slot %ring[%c0] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %a, %s, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
    scf.yield %d : tensor<64x64xf32, #wgmma>
  }
  return %r : tensor<64x64xf32, #wgmma>
}

// The same ring released on an "empty" mbarrier (tilegpu-pipeline-streams
// marks it): the copy's thread waits there for every reader, so the body
// ends without a barrier.
// CHECK-LABEL: func.func @tma_ring_released
// CHECK: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
func.func @tma_ring_released(%map: !tilegpu.tensor_map<64x64xbf16, #swz>, %a: !tilegpu.smem<64x64xbf16, #swz>,
                             %n: i32, %acc0: tensor<64x64xf32, #wgmma>) -> tensor<64x64xf32, #wgmma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ring = tilegpu.alloc {tilegpu.released_by_mbarrier} : !tilegpu.smem<2x64x64xbf16, #swz>
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  %empty = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<2>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #wgmma>) : i32 {
    tilegpu.mbarrier_wait %full[%c0], %i : !tilegpu.mbarrier<2>
    tilegpu.mbarrier_wait %empty[%c1], %i : !tilegpu.mbarrier<2>
    %next = tilegpu.slot %ring[%c1] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
    tilegpu.tma_load %map[%i, %c0], %next, %full[%c1] : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<2>
    %s = tilegpu.slot %ring[%c0] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %a, %s, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
    tilegpu.mbarrier_arrive %empty[%c0] : !tilegpu.mbarrier<2>
    scf.yield %d : tensor<64x64xf32, #wgmma>
  }
  return %r : tensor<64x64xf32, #wgmma>
}

// A loop that only reads what was written before it (Q in shared memory,
// K in a ring another role fills): one barrier (and fence) before the
// loop publishes the store; none in the body, since no iteration writes
// what another reads. After the loop the reads are still pending: the
// store that follows waits for them.
// CHECK-LABEL: func.func @read_only_loop
// CHECK: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store
func.func @read_only_loop(%q: tensor<64x64xbf16, #blocked>, %a: !tilegpu.smem<64x64xbf16, #swz>,
                          %k: !tilegpu.smem<64x64xbf16, #swz>, %n: i32, %acc0: tensor<64x64xf32, #wgmma>) -> tensor<64x64xf32, #wgmma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  tilegpu.local_store %q, %a : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #swz>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #wgmma>) : i32 {
    %t = tilegpu.warpgroup_dot %a, %k, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
    scf.yield %d : tensor<64x64xf32, #wgmma>
  }
  tilegpu.local_store %q, %a : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #swz>
  return %r : tensor<64x64xf32, #wgmma>
}

// In a warp role, reads of a buffer only another role writes (a ring the
// producer fills by TMA, ordered by mbarriers) are no hazard: no thread of
// the role overwrites them, so a loop that only reads it needs no barrier
// after it, and neither does the next loop. A buffer the role writes
// itself still gets one.
// CHECK-LABEL: func.func @read_what_another_role_fills
// CHECK: role warps = 4 registers = 232 {
// CHECK: scf.for
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[ID]], 128
// CHECK-NEXT: tilegpu.local_store
func.func @read_what_another_role_fills(%map: !tilegpu.tensor_map<64x64xbf16, #swz>, %n: i32,
                                         %acc0: tensor<64x64xf32, #wgmma>, %q: tensor<64x64xbf16, #blocked>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %ring = tilegpu.alloc : !tilegpu.smem<2x64x64xbf16, #swz>
  %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      scf.for %i = %c0 to %n step %c1 : i32 {
        %s = tilegpu.slot %ring[%c0] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.tma_load %map[%i, %c0], %s, %full[%c0] : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<2>
      }
    }
    role warps = 4 registers = 232 {
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #wgmma>) : i32 {
        tilegpu.mbarrier_wait %full[%c0], %i : !tilegpu.mbarrier<2>
        %s = tilegpu.slot %ring[%c0] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %s, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        scf.yield %d : tensor<64x64xf32, #wgmma>
      }
      %r2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf32, #wgmma>) : i32 {
        %s = tilegpu.slot %ring[%c1] : !tilegpu.smem<2x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %a, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        scf.yield %d : tensor<64x64xf32, #wgmma>
      }
      tilegpu.local_store %q, %a : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #swz>
    }
  return
}

// A TMA store's wait ends the store's reads of its buffer for the waiting
// thread: the next iteration's write of that buffer by any thread waits for
// a barrier after it. The wait's own branch, which writes nothing where only
// reads are pending (of %other), needs no barrier before it.
// CHECK-LABEL: func.func @tma_store_wait
// CHECK: scf.for
// CHECK-NEXT: tilegpu.local_load
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.local_store %{{.+}}, %[[BUF:.+]] :
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.tma_store %[[BUF]]
func.func @tma_store_wait(%x: tensor<64x64xbf16, #blocked>, %map: !tilegpu.tensor_map<64x64xbf16, #swz>,
                          %first: i1, %n: i32) -> tensor<64x64xbf16, #blocked> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %other = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xbf16, #blocked>) : i32 {
    %v = tilegpu.local_load %other : !tilegpu.smem<64x64xbf16, #swz> -> tensor<64x64xbf16, #blocked>
    scf.if %first {
      tilegpu.tma_store_wait {pending = 0 : i32}
    }
    tilegpu.local_store %x, %buf : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #swz>
    scf.if %first {
      tilegpu.tma_store %buf, %map[%i, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<64x64xbf16, #swz>
    }
    scf.yield %v : tensor<64x64xbf16, #blocked>
  }
  return %r : tensor<64x64xbf16, #blocked>
}
