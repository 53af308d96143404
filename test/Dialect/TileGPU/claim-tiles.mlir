// tilegpu-claim-tiles on kernels it cannot change: one that was not
// warp-specialized keeps its static order (a warning); one whose roles
// have no loop counting its tiles is an error. (The rewrite itself:
// test/tilec/tile-counter.mlir, on the causal forward.)
// RUN: tilec-opt %s -split-input-file --tilegpu-claim-tiles -verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @not_specialized
// CHECK-SAME: tilec.tile_counter
// expected-warning @+1 {{tilec.tile_counter: not warp-specialized, the tiles keep their static order}}
func.func @not_specialized(%n: i32) attributes {tilec.persistent, tilec.tile_counter} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %t = %c0 to %n step %c1 : i32 {
  }
  return
}

// -----

// expected-error @+1 {{tilec.tile_counter: expected one loop over the tiles, counting them, in each role}}
func.func @no_count(%n: i32) attributes {tilec.persistent, tilec.tile_counter, nvvm.reqntid = array<i32: 256>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 24 {
      scf.for %t = %c0 to %n step %c1 : i32 {
      }
    }
    role warps = 4 registers = 240 {
      scf.for %t = %c0 to %n step %c1 : i32 {
      }
    }
  return
}

// -----

// The rewrite on its own input: a producer role whose warp-0 branch runs a
// tile loop counting its tiles (%k: 0, then + 1) and a consumer role whose
// tile loop does the same. The producer's loop becomes a while from the
// program's first tile that hands each index over, claims the next after
// the tile's work (+ the step), and hands over the index that stops the
// consumers after it; the consumers' loop reads each index after waiting
// for it and frees its slot.
// CHECK-LABEL: func.func @rewrite
// CHECK-NOT: tilec.tile_counter
// CHECK: %[[NEXT:.*]] = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
// CHECK-NEXT: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
// CHECK-NEXT: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<2>
// CHECK-NEXT: tilegpu.warp_specialize
// CHECK: %[[LAST:.*]] = arith.subi %[[TOTAL:.*]], %{{.*}} : i32
// CHECK: %[[P:.*]]:2 = scf.while (%[[T:.*]] = %[[FIRST:.*]], %{{.*}} = %{{.*}}) : (i32, i32) -> (i32, i32) {
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[T]], %[[TOTAL]] : i32
// CHECK-NEXT: scf.condition(%[[MORE]]) %[[T]], %{{.*}} : i32, i32
// CHECK: ^bb0(%[[TILE:.*]]: i32, %[[K:.*]]: i32):
// CHECK: %[[SLOT:.*]] = arith.remui %[[K]], %{{.*}}
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]][%[[SLOT]]]
// CHECK: tilegpu.scalar_store %[[TILE]], %[[NEXT]][%[[SLOT]]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[FULL]][%[[SLOT]]]
// CHECK: tilegpu.barrier_arrive %[[TILE]], 32
// CHECK: %[[CLAIMED:.*]] = tilegpu.claim_tile last %[[LAST]] : i32
// CHECK-NEXT: %[[AFTER:.*]] = arith.addi %[[CLAIMED]], %[[STEP:.*]] : i32
// CHECK-NEXT: scf.yield %[[AFTER]], %{{.*}} : i32, i32
// CHECK: tilegpu.scalar_store %[[P]]#0, %[[NEXT]]
// CHECK: role warps = 8
// CHECK: scf.while (%[[CK:.*]] = %{{.*}}) : (i32) -> (i32, i32) {
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK-NEXT: %[[CT:.*]] = tilegpu.scalar_load %[[NEXT]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[EMPTY]]
// CHECK-NEXT: %[[CMORE:.*]] = arith.cmpi slt, %[[CT]], %[[TOTAL]]
// CHECK-NEXT: scf.condition(%[[CMORE]]) %[[CT]], %[[CK]] : i32, i32
// CHECK: ^bb0(%[[CTILE:.*]]: i32, %{{.*}}: i32):
// CHECK: tilegpu.barrier_sync %[[CTILE]], 32
func.func @rewrite(%total: i32, %first: i32, %step: i32)
    attributes {tilec.persistent, tilec.tile_counter, nvvm.reqntid = array<i32: 384>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 24 {
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %warp0 = arith.cmpi ult, %tid, %c32 : i32
      scf.if %warp0 {
        %n = scf.for %t = %first to %total step %step iter_args(%k = %c0) -> (i32) : i32 {
          tilegpu.barrier_arrive %t, 32
          %k1 = arith.addi %k, %c1 : i32
          scf.yield %k1 : i32
        }
      }
    }
    role warps = 8 registers = 240 {
      %n = scf.for %t = %first to %total step %step iter_args(%k = %c0) -> (i32) : i32 {
        tilegpu.barrier_sync %t, 32
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %k1 : i32
      }
    }
  return
}
