// An op on distributed tiles that no pattern lowers yet is named, not left
// to a generic legalization failure (tile.online_softmax: tile-decompose-
// online-softmax runs first in the pipelines); a tile.dot names the pass
// that lowers it; a transpose that moves data between threads says so.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics --mlir-print-op-on-diagnostic=false

#r = #tilegpu.mma<warps = [4, 1]>
#row = #tilegpu.linear<reg = [[8, 0], [32, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [0, 0]]>
func.func @online_softmax(%s: tensor<64x16xf32, #r>, %m: tensor<64xf32, #tilegpu.linear<reg = [[8], [32]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [0]]>>) {
  // expected-error @+2 {{'tile.online_softmax' op on distributed tiles is not lowered by convert-tilegpu-to-nvvm yet (such kernels lower through tile-to-llvm)}}
  // expected-error @+1 {{failed to legalize operation 'tile.online_softmax'}}
  %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 : tensor<64x16xf32, #r>, tensor<64xf32, #tilegpu.linear<reg = [[8], [32]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [0]]>>
  return
}

// -----

#b = #tilegpu.blocked<size_per_thread = [4, 1], threads = [8, 4], warps = [4, 1], order = [0, 1]>
#t = #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [4, 1], order = [1, 0]>
// A transpose whose result layout needs other threads' elements:
// tilegpu-lower-conversions converts its source first.
func.func @trans(%x: tensor<32x16xf32, #b>) -> tensor<16x32xf32, #t> {
  // expected-error @+2 {{'tile.trans' op expected a result layout that keeps every element in its thread (a transpose within threads; insert tilegpu.convert_layout after it)}}
  // expected-error @+1 {{failed to legalize operation 'tile.trans'}}
  %t = tile.trans %x order = [1, 0] : tensor<32x16xf32, #b> -> tensor<16x32xf32, #t>
  return %t : tensor<16x32xf32, #t>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bop = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
func.func @dot(%a: tensor<64x16xbf16, #a>, %b: tensor<16x32xbf16, #bop>, %c: tensor<64x32xf32, #acc>) -> tensor<64x32xf32, #acc> {
  // expected-error @+2 {{'tile.dot' op is lowered by tilegpu-lower-dots (to tilegpu.mma or tilegpu.warpgroup_dot) before convert-tilegpu-to-nvvm}}
  // expected-error @+1 {{failed to legalize operation 'tile.dot'}}
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x32xbf16, #bop> -> tensor<64x32xf32, #acc>
  return %d : tensor<64x32xf32, #acc>
}
