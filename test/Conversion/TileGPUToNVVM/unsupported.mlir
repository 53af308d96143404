// An op on distributed tiles that no pattern lowers yet is named, not left
// to a generic legalization failure; a tile.dot names the pass that lowers it.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics --mlir-print-op-on-diagnostic=false

#b = #tilegpu.blocked<size_per_thread = [4, 1], threads = [8, 4], warps = [4, 1], order = [0, 1]>
#t = #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [1, 4], order = [1, 0]>
func.func @trans(%x: tensor<32x16xf32, #b>) -> tensor<16x32xf32, #t> {
  // expected-error @+2 {{'tile.trans' op on distributed tiles is not lowered by convert-tilegpu-to-nvvm yet (such kernels lower through tile-to-llvm)}}
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
