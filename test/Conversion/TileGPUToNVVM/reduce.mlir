// tile.reduce on distributed tiles: registers combined in a tree, then
// butterfly shuffles over the lanes along the axis; across warps it is
// reported (that needs shared memory).
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

#wgmma = #tilegpu.wgmma<warpgroups = 1>
#rows = #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32]]>

// Row max of a 64x64 wgmma accumulator: each thread holds 2 rows x 16
// columns (32 registers): 2 x 15 maxima, then two shuffle steps (lanes
// 1 and 2 apart hold the row's other columns) for each of the 2 rows.
// CHECK-LABEL: func.func @row_max
// CHECK-COUNT-30: arith.maximumf
// CHECK-NOT: nvvm.shfl.sync
// CHECK-COUNT-4: nvvm.shfl.sync bfly
// CHECK-NOT: nvvm.shfl.sync
// CHECK: return
func.func @row_max(%s: tensor<64x64xf32, #wgmma>) -> tensor<64xf32, #rows> {
  %m = tile.reduce max %s axis = 1 : tensor<64x64xf32, #wgmma> -> tensor<64xf32, #rows>
  return %m : tensor<64xf32, #rows>
}

// -----

#rows = #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32]]>
func.func @across_warps(%r: tensor<64xf32, #rows>) -> f32 {
  // expected-error @+2 {{'tile.reduce' op expected a reduction within each warp (partial results of several warps meet in shared memory: not lowered yet)}}
  // expected-error @+1 {{failed to legalize operation 'tile.reduce'}}
  %t = tile.reduce sum %r axis = 0 : tensor<64xf32, #rows> -> f32
  return %t : f32
}
