// Shared-memory offsets by liveness: buffers whose live ranges do not overlap
// share bytes, those that overlap do not; swizzled buffers are 1024-aligned,
// unpadded (padded<0>) ones 128-aligned,
// mbarriers 8-aligned; a use inside a loop keeps a buffer alive through it;
// in the kernel's body a buffer that takes another's bytes comes after a
// barrier.
// RUN: tilec-opt %s --tilegpu-allocate-shared-memory | FileCheck %s

#pad = #tilegpu.padded<16>
#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>

// CHECK-LABEL: func.func @disjoint
// CHECK-SAME: tilegpu.shared_bytes = 2304 : i64
func.func @disjoint(%x: tensor<16x64xbf16, #blocked>) {
  // 16 rows x (128 + 16) bytes = 2304 bytes, dead after its load. The
  // second takes its bytes: a barrier before it, so that no thread writes
  // them while another still reads the first (session 30).
  // CHECK: %[[A:.+]] = tilegpu.alloc {offset = 0 : i64}
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  // CHECK: tilegpu.local_load %[[A]]
  // CHECK-NEXT: tilegpu.barrier
  // CHECK-NEXT: %[[B:.+]] = tilegpu.alloc {offset = 0 : i64}
  %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  %b = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %y, %b : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return
}

// A barrier already between: none added.
// CHECK-LABEL: func.func @disjoint_synchronized
// CHECK: tilegpu.local_load
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.alloc {offset = 0 : i64}
// CHECK-NOT: tilegpu.barrier
// CHECK: return
func.func @disjoint_synchronized(%x: tensor<16x64xbf16, #blocked>) {
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %y = tilegpu.local_load %a : !tilegpu.smem<16x64xbf16, #pad> -> tensor<16x64xbf16, #blocked>
  tilegpu.barrier
  %b = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %y, %b : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return
}

// CHECK-LABEL: func.func @overlapping
// CHECK-SAME: tilegpu.shared_bytes = 4096 : i64
func.func @overlapping(%x: tensor<16x64xbf16, #blocked>) {
  // CHECK: tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  // The swizzled buffer starts at the next 1024-byte boundary after 2304.
  // CHECK: tilegpu.alloc {offset = 3072 : i64} : !tilegpu.smem<8x64xbf16, #tilegpu.swizzled<128>>
  %b = tilegpu.alloc : !tilegpu.smem<8x64xbf16, #swz>
  // CHECK: tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 2304 : i64} : !tilegpu.mbarrier<2>
  %bars = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  %c0 = arith.constant 0 : i32
  tilegpu.mbarrier_arrive %bars[%c0] : !tilegpu.mbarrier<2>
  %y = tilegpu.local_load %b : !tilegpu.smem<8x64xbf16, #swz> -> tensor<8x64xbf16, #blocked>
  return
}

// CHECK-LABEL: func.func @loop
func.func @loop(%x: tensor<16x64xbf16, #blocked>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  // CHECK: tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<2x16x64xbf16
  %ring = tilegpu.alloc : !tilegpu.smem<2x16x64xbf16, #pad>
  scf.for %i = %c0 to %n step %c1 {
    // Alive through the loop with the ring (used in it through a slot view).
    // CHECK: tilegpu.alloc {offset = 4608 : i64} : !tilegpu.smem<16x64xbf16
    %t = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
    %s = tilegpu.slot %ring[%i0] : !tilegpu.smem<2x16x64xbf16, #pad> -> !tilegpu.smem<16x64xbf16, #pad>
    tilegpu.local_store %x, %s : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
    tilegpu.local_store %x, %t : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  }
  // After the loop, the ring's bytes are free again.
  // CHECK: tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x64xbf16
  %after = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %after : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return
}

// CHECK-LABEL: func.func @preset
func.func @preset(%x: tensor<16x64xbf16, #blocked>) {
  // CHECK: tilegpu.alloc {offset = 0 : i64}
  %a = tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<16x64xbf16, #pad>
  // CHECK: tilegpu.alloc {offset = 2304 : i64}
  %b = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %b : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return
}

// An mbarrier keeps its bytes to the kernel's end, even after its last use:
// PTX allows no other use of them without mbarrier.inval. The buffer made
// after it does not take them, though the barrier is dead by then.
// CHECK-LABEL: func.func @mbarrier_lifetime
// CHECK: tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 0 : i64}
// CHECK: tilegpu.alloc {offset = 16 : i64}
func.func @mbarrier_lifetime(%x: tensor<16x64xbf16, #blocked>) {
  %c0 = arith.constant 0 : i32
  %bars = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_arrive %bars[%c0] : !tilegpu.mbarrier<2>
  %a = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #pad>
  tilegpu.local_store %x, %a : tensor<16x64xbf16, #blocked>, !tilegpu.smem<16x64xbf16, #pad>
  return
}

// A padded<0> buffer (rows a TMA box without swizzle may fill) starts at a
// 128-byte boundary: after one padded<16> row of 144 bytes, at 256 (a
// padded<16> buffer would take 144).
// CHECK-LABEL: func.func @unpadded_rows
// CHECK: tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<1x64xbf16, #tilegpu.padded<16>>
// CHECK: tilegpu.alloc {offset = 256 : i64} : !tilegpu.smem<2x32xf32, #tilegpu.padded<0>>
func.func @unpadded_rows(%x: tensor<1x64xbf16, #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [1, 4], order = [1, 0]>>) {
  %a = tilegpu.alloc : !tilegpu.smem<1x64xbf16, #pad>
  %b = tilegpu.alloc : !tilegpu.smem<2x32xf32, #tilegpu.padded<0>>
  %i0 = arith.constant 0 : i32
  %s = tilegpu.slot %b[%i0] : !tilegpu.smem<2x32xf32, #tilegpu.padded<0>> -> !tilegpu.smem<32xf32, #tilegpu.padded<0>>
  tilegpu.local_store %x, %a : tensor<1x64xbf16, #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [1, 4], order = [1, 0]>>, !tilegpu.smem<1x64xbf16, #pad>
  return
}

// Inside a warp role, buffers have live ranges of their own: one made after
// another's last use takes its bytes when a barrier of the whole role lies
// between (the role's threads do not run in step; ping-pong's turns, whose
// id depends on the thread, are no such barrier). A wgmma reads its
// operands until the dot_wait of its token, and a TMA store its source
// until the role ends. Buffers of different roles never share bytes.
// CHECK-LABEL: func.func @roles
func.func @roles(%p: tensor<64x64xbf16, #wgmma>, %o: tensor<64x64xf32, #wgmma>,
                 %map: !tilegpu.tensor_map<64x64xbf16, #swz>) {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: tilegpu.alloc {offset = 0 : i64}
  %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      // Not beside the other role's buffers: after %b, at 8192.
      // CHECK: tilegpu.alloc {offset = 8192 : i64}
      %x = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %x : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
    }
    role warps = 4 registers = 232 {
      // CHECK: tilegpu.alloc {offset = 16384 : i64}
      %q = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %q : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      %t = tilegpu.warpgroup_dot %q, %b, %o transpose_b
          : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
      tilegpu.barrier_sync %c2, 128
      // %q is still read here, after a barrier (its dot's wait comes
      // later): not its bytes.
      // CHECK: tilegpu.alloc {offset = 24576 : i64}
      %v = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
      tilegpu.local_store %p, %v : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      %wg = tilegpu.warpgroup_id : i32
      tilegpu.barrier_sync %wg, 128
      // %q is dead now, but only a turn (not the whole role) has waited.
      // CHECK: tilegpu.alloc {offset = 32768 : i64}
      %w = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %w : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.barrier_sync %c2, 128
      // After the role's barrier: %q's bytes (also dead %v's, %w's, but
      // first fit takes the lowest).
      // CHECK: tilegpu.alloc {offset = 16384 : i64}
      %out = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %out : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.tma_store %out, %map[%c0, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<64x64xbf16, #swz>
      tilegpu.barrier_sync %c2, 128
      // A TMA store's source stays alive to the role's end.
      // CHECK: tilegpu.alloc {offset = 24576 : i64}
      %late = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %late : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
    }
  return
}

// A buffer of the kernel's body that one role fills once by TMA (a
// program's Q or last V block, from the producer) and one other role reads
// lives in the reader as its own from the reader's start: a buffer made
// there after its last use and a barrier of the role takes its bytes; one
// made before that (while the copy may still land) does not. Filled in a
// loop, or read by two roles, it keeps the whole warp_specialize.
// CHECK-LABEL: func.func @once_filled
func.func @once_filled(%p: tensor<64x64xbf16, #wgmma>, %o: tensor<64x64xf32, #wgmma>,
                       %map: !tilegpu.tensor_map<64x64xbf16, #swz>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  // CHECK: tilegpu.alloc {offset = 0 : i64} : !tilegpu.smem<1x64x64xbf16
  %q = tilegpu.alloc : !tilegpu.smem<1x64x64xbf16, #swz>
  // CHECK: tilegpu.alloc {offset = 8192 : i64} : !tilegpu.smem<1x64x64xbf16
  %ring = tilegpu.alloc : !tilegpu.smem<1x64x64xbf16, #swz>
  // CHECK: tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 16384 : i64}
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      %qs = tilegpu.slot %q[%c0] : !tilegpu.smem<1x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.tma_load %map[%c0, %c0], %qs, %full[%c0] : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
      scf.for %i = %c0 to %n step %c1 : i32 {
        %rs = tilegpu.slot %ring[%c0] : !tilegpu.smem<1x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.tma_load %map[%i, %c0], %rs, %full[%c0] : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
      }
    }
    role warps = 4 registers = 232 {
      // Made before %q's last use: not its bytes.
      // CHECK: tilegpu.alloc {offset = 17408 : i64}
      %early = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %early : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      %qs = tilegpu.slot %q[%c0] : !tilegpu.smem<1x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
      %rs = tilegpu.slot %ring[%c0] : !tilegpu.smem<1x64x64xbf16, #swz> -> !tilegpu.smem<64x64xbf16, #swz>
      %t = tilegpu.warpgroup_dot %qs, %rs, %o transpose_b
          : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
      %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
      tilegpu.barrier_sync %c2, 128
      // After %q's last read and a barrier of the role: %q's bytes, not the
      // ring's (filled in a loop) nor %early's (still in use below).
      // CHECK: tilegpu.alloc {offset = 0 : i64}
      %out = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %out : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      tilegpu.local_store %p, %early : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
    }
  return
}

// In a role, the step buffers of consecutive loops share bytes when the
// earlier loop's body ends with a barrier of the whole role (every thread
// is done with its buffer before any thread leaves it); without that
// barrier they do not (the fused backward's three key loops).
// CHECK-LABEL: func.func @role_loops
func.func @role_loops(%p: tensor<64x64xbf16, #wgmma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      scf.for %i = %c0 to %n step %c1 : i32 {
        // CHECK: tilegpu.alloc {offset = 0 : i64}
        %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.local_store %p, %a : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.barrier_sync %c2, 128
      }
      scf.for %i = %c0 to %n step %c1 : i32 {
        // After a loop whose body ends with the role's barrier: its bytes.
        // CHECK: tilegpu.alloc {offset = 0 : i64}
        %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.local_store %p, %b : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      }
      scf.for %i = %c0 to %n step %c1 : i32 {
        // After one whose body does not: not %b's bytes.
        // CHECK: tilegpu.alloc {offset = 8192 : i64}
        %c = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.local_store %p, %c : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
      }
    }
  return
}

// In a persistent kernel (tilec.persistent) the body of a role's tile loop
// is a timeline of its own: buffers of one tile share bytes as in a role's
// body, when a barrier of the role also separates them around the loop's
// back edge — from the later one's last use, through the next tile's
// start, to its first use of the earlier one. A TMA store's source there
// stays alive through the whole body (its wait may come in the next tile).
// CHECK-LABEL: func.func @tile_loop
func.func @tile_loop(%p: tensor<64x64xbf16, #wgmma>, %n: i32,
                     %map: !tilegpu.tensor_map<64x64xbf16, #swz>) attributes {tilec.persistent} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      scf.for %t = %c0 to %n step %c1 : i32 {
        scf.for %i = %c0 to %n step %c1 : i32 {
          // CHECK: tilegpu.alloc {offset = 0 : i64}
          %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.local_store %p, %a : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.barrier_sync %c2, 128
        }
        scf.for %i = %c0 to %n step %c1 : i32 {
          // Barriers both ways (each loop's body ends with one): %a's bytes.
          // CHECK: tilegpu.alloc {offset = 0 : i64}
          %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.local_store %p, %b : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.barrier_sync %c2, 128
        }
        scf.for %i = %c0 to %n step %c1 : i32 {
          // Nothing waits between this loop and the next tile's first two:
          // neither %a's nor %b's bytes.
          // CHECK: tilegpu.alloc {offset = 8192 : i64}
          %c = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.local_store %p, %c : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
        }
        // A TMA store reads it into the next tile: no bytes of the others.
        // CHECK: tilegpu.alloc {offset = 16384 : i64}
        %out = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.local_store %p, %out : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
        tilegpu.tma_store %out, %map[%c0, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<64x64xbf16, #swz>
      }
    }
  return
}

// Not persistent: a loop in the role holds all its buffers through it.
// CHECK-LABEL: func.func @not_tile_loop
func.func @not_tile_loop(%p: tensor<64x64xbf16, #wgmma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      scf.for %t = %c0 to %n step %c1 : i32 {
        scf.for %i = %c0 to %n step %c1 : i32 {
          // CHECK: tilegpu.alloc {offset = 0 : i64}
          %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.local_store %p, %a : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.barrier_sync %c2, 128
        }
        scf.for %i = %c0 to %n step %c1 : i32 {
          // CHECK: tilegpu.alloc {offset = 8192 : i64}
          %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.local_store %p, %b : tensor<64x64xbf16, #wgmma>, !tilegpu.smem<64x64xbf16, #swz>
          tilegpu.barrier_sync %c2, 128
        }
      }
    }
  return
}
