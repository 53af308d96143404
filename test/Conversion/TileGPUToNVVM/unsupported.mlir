// An op on distributed tiles that no pattern lowers yet is named, not left
// to a generic legalization failure; tile descriptors pass through.
// RUN: tilec-opt %s --convert-tilegpu-to-nvvm -verify-diagnostics --mlir-print-op-on-diagnostic=false

#b = #tilegpu.blocked<size_per_thread = [4], threads = [32], warps = [4], order = [0]>
func.func @load(%d: !tile.desc<512xf32>) -> tensor<512xf32, #b> {
  %c0 = arith.constant 0 : i32
  // expected-error @+2 {{'tile.load_block' op on distributed tiles is not lowered by convert-tilegpu-to-nvvm yet (kernels lower through tile-to-llvm today)}}
  // expected-error @+1 {{failed to legalize operation 'tile.load_block'}}
  %x = tile.load_block %d[%c0] : !tile.desc<512xf32> -> tensor<512xf32, #b>
  return %x : tensor<512xf32, #b>
}
