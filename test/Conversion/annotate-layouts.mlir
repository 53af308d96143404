// RUN: tilec-opt %s --tile-annotate-layouts=num-warps=4 -split-input-file | FileCheck %s

// A dot result takes the mma.sync accumulator layout (warps along M); the row
// reduction of it, the slice; elementwise users keep it.
// CHECK-LABEL: func.func @dot_then_rows
// CHECK: tile.dot {{.*}}tilegpu.layouts = ["<64x32, reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>"]
// CHECK: arith.mulf {{.*}}tilegpu.layouts = ["<64x32, reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]]
// CHECK: tile.reduce max {{.*}}tilegpu.layouts = ["<64, reg = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = {{\[\[}}16], [32]]>"]
func.func @dot_then_rows(%a: tensor<64x16xbf16>, %b: tensor<16x32xbf16>, %c: tensor<64x32xf32>) -> tensor<64xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %e = arith.mulf %d, %d : tensor<64x32xf32>
  %r = tile.reduce max %e axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Other tiles get a blocked layout: 4 f32 per thread along the last dimension.
// CHECK-LABEL: func.func @blocked
// CHECK: tile.iota {{.*}}tilegpu.layouts = ["<512, reg = {{\[\[}}1], [2]], lane = {{\[\[}}4], [8], [16], [32], [64]], warp = {{\[\[}}128], [256]]>"]
func.func @blocked() -> tensor<512xi32> {
  %i = tile.iota : tensor<512xi32>
  return %i : tensor<512xi32>
}

