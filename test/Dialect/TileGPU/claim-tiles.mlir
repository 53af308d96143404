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
