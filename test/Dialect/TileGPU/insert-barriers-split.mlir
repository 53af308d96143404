// One barrier of both warpgroups a loop step (tilec.split_staging, the
// fused backward's consumer_barriers=one): a step's reads of a slot of an
// alternating buffer (tilegpu.alternating_slots) meet the write two steps
// on, after the step's own barrier, so the step ends without one (one after
// the loop instead); and what only the first warp's TMA store reads is
// published to that warp alone (bar.sync 15 there, bar.arrive 15 in the
// others). Without the kernel attribute that store takes the role's
// barrier; without the alternating slots the step ends with one. Running
// the pass again adds nothing.
// RUN: tilec-opt %s --tilegpu-insert-barriers | FileCheck %s
// RUN: tilec-opt %s --tilegpu-insert-barriers -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir --tilegpu-insert-barriers -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// CHECK-LABEL: func.func @one_barrier_a_step
// CHECK: scf.for
// CHECK: tilegpu.slot
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 256
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.dot_wait
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: scf.if
// CHECK-NEXT: %[[W:.+]] = arith.constant 15 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[W]], 256
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[A:.+]] = arith.constant 15 : i32
// CHECK-NEXT: tilegpu.barrier_arrive %[[A]], 256
// CHECK-NEXT: }
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.tma_store
// CHECK-NEXT: }
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 256

#swz = #tilegpu.swizzled<128>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [8, 1], order = [1, 0]>
#wgmma = #tilegpu.wgmma<warpgroups = 2>

func.func @one_barrier_a_step(%x: tensor<128x64xbf16, #blocked>, %y: tensor<128x64xbf16, #blocked>,
                              %map: !tilegpu.tensor_map<128x64xbf16, #swz>, %n: i32,
                              %acc0: tensor<128x64xf32, #wgmma>) attributes {tilec.split_staging} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %staging = tilegpu.alloc : !tilegpu.smem<128x64xbf16, #swz>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %w = tilegpu.warp_id : i32
      %first = arith.cmpi eq, %w, %c0 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x64xf32, #wgmma>) : i32 {
        scf.if %first {
          tilegpu.tma_store_wait {pending = 0 : i32}
        }
        %p = arith.remui %i, %c2 : i32
        %ring = tilegpu.alloc {tilegpu.alternating_slots} : !tilegpu.smem<2x128x64xbf16, #swz>
        %s = tilegpu.slot %ring[%p] : !tilegpu.smem<2x128x64xbf16, #swz> -> !tilegpu.smem<128x64xbf16, #swz>
        tilegpu.local_store %x, %s : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %k, %acc : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<128x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<128x64xf32, #wgmma>>
        tilegpu.local_store %y, %staging : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        scf.if %first {
          tilegpu.tma_store %staging, %map[%i, %c0] : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.tensor_map<128x64xbf16, #swz>
        }
        scf.yield %d : tensor<128x64xf32, #wgmma>
      }
    }
  return
}

// CHECK-LABEL: func.func @without_the_kernel_attribute
// CHECK: tilegpu.dot_wait
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 256
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.tma_store
// CHECK-NOT: barrier_arrive
func.func @without_the_kernel_attribute(%x: tensor<128x64xbf16, #blocked>, %y: tensor<128x64xbf16, #blocked>,
                              %map: !tilegpu.tensor_map<128x64xbf16, #swz>, %n: i32,
                              %acc0: tensor<128x64xf32, #wgmma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %staging = tilegpu.alloc : !tilegpu.smem<128x64xbf16, #swz>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %w = tilegpu.warp_id : i32
      %first = arith.cmpi eq, %w, %c0 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x64xf32, #wgmma>) : i32 {
        scf.if %first {
          tilegpu.tma_store_wait {pending = 0 : i32}
        }
        %p = arith.remui %i, %c2 : i32
        %ring = tilegpu.alloc {tilegpu.alternating_slots} : !tilegpu.smem<2x128x64xbf16, #swz>
        %s = tilegpu.slot %ring[%p] : !tilegpu.smem<2x128x64xbf16, #swz> -> !tilegpu.smem<128x64xbf16, #swz>
        tilegpu.local_store %x, %s : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %k, %acc : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<128x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<128x64xf32, #wgmma>>
        tilegpu.local_store %y, %staging : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        scf.if %first {
          tilegpu.tma_store %staging, %map[%i, %c0] : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.tensor_map<128x64xbf16, #swz>
        }
        scf.yield %d : tensor<128x64xf32, #wgmma>
      }
    }
  return
}

// CHECK-LABEL: func.func @without_alternating_slots
// CHECK: tilegpu.barrier_arrive
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store
// CHECK-NEXT: }
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 256
// CHECK-NEXT: scf.yield
func.func @without_alternating_slots(%x: tensor<128x64xbf16, #blocked>, %y: tensor<128x64xbf16, #blocked>,
                              %map: !tilegpu.tensor_map<128x64xbf16, #swz>, %n: i32,
                              %acc0: tensor<128x64xf32, #wgmma>) attributes {tilec.split_staging} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %staging = tilegpu.alloc : !tilegpu.smem<128x64xbf16, #swz>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %w = tilegpu.warp_id : i32
      %first = arith.cmpi eq, %w, %c0 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x64xf32, #wgmma>) : i32 {
        scf.if %first {
          tilegpu.tma_store_wait {pending = 0 : i32}
        }
        %p = arith.remui %i, %c2 : i32
        %ring = tilegpu.alloc : !tilegpu.smem<2x128x64xbf16, #swz>
        %s = tilegpu.slot %ring[%p] : !tilegpu.smem<2x128x64xbf16, #swz> -> !tilegpu.smem<128x64xbf16, #swz>
        tilegpu.local_store %x, %s : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %k, %acc : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<128x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<128x64xf32, #wgmma>>
        tilegpu.local_store %y, %staging : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        scf.if %first {
          tilegpu.tma_store %staging, %map[%i, %c0] : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.tensor_map<128x64xbf16, #swz>
        }
        scf.yield %d : tensor<128x64xf32, #wgmma>
      }
    }
  return
}

// A buffer some thread also reads is published to all: the role's barrier.
// CHECK-LABEL: func.func @staging_read_by_threads
// CHECK: tilegpu.dot_wait
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: tilegpu.fence async_proxy
// CHECK-NEXT: arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %{{.+}}, 256
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.tma_store
// CHECK-NOT: barrier_arrive
// CHECK: return
func.func @staging_read_by_threads(%x: tensor<128x64xbf16, #blocked>, %y: tensor<128x64xbf16, #blocked>,
                              %map: !tilegpu.tensor_map<128x64xbf16, #swz>, %n: i32,
                              %acc0: tensor<128x64xf32, #wgmma>) attributes {tilec.split_staging} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %staging = tilegpu.alloc : !tilegpu.smem<128x64xbf16, #swz>
  %k = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %w = tilegpu.warp_id : i32
      %first = arith.cmpi eq, %w, %c0 : i32
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x64xf32, #wgmma>) : i32 {
        scf.if %first {
          tilegpu.tma_store_wait {pending = 0 : i32}
        }
        %p = arith.remui %i, %c2 : i32
        %ring = tilegpu.alloc {tilegpu.alternating_slots} : !tilegpu.smem<2x128x64xbf16, #swz>
        %s = tilegpu.slot %ring[%p] : !tilegpu.smem<2x128x64xbf16, #swz> -> !tilegpu.smem<128x64xbf16, #swz>
        tilegpu.local_store %x, %s : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        %t = tilegpu.warpgroup_dot %s, %k, %acc : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<128x64xf32, #wgmma>
        %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<128x64xf32, #wgmma>>
        tilegpu.local_store %y, %staging : tensor<128x64xbf16, #blocked>, !tilegpu.smem<128x64xbf16, #swz>
        scf.if %first {
          tilegpu.tma_store %staging, %map[%i, %c0] : !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.tensor_map<128x64xbf16, #swz>
        }
        %v = tilegpu.local_load %staging : !tilegpu.smem<128x64xbf16, #swz> -> tensor<128x64xbf16, #blocked>
        scf.yield %d : tensor<128x64xf32, #wgmma>
      }
    }
  return
}
