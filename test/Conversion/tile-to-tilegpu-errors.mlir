// tilegpu IR that does not fit the options it is lowered with is an error
// at the op (tile-to-llvm reads the layouts from the types).
// RUN: tilec-opt %s --tile-to-llvm="num-warps=8" -split-input-file -verify-diagnostics --mlir-print-op-on-diagnostic=false

// expected-error @+1 {{expected the tiles' layouts to spread over 8 warps (--num-warps)}}
func.func @four_warp_layouts(%p: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %s1 = arith.constant 1 : i64
  %d = tile.make_desc %p, [%c128], [%s1] : !tile.ptr<i32> -> !tile.desc<128xi32>
  %i = tile.iota : tensor<128xi32, #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>>
  tile.store_block %d[%c0], %i : !tile.desc<128xi32>, tensor<128xi32, #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>>
  return
}

// -----

func.func @partly_placed(%p: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c128 = arith.constant 128 : i32
  %s1 = arith.constant 1 : i64
  %d = tile.make_desc %p, [%c128], [%s1] : !tile.ptr<i32> -> !tile.desc<128xi32>
  %i = tile.iota : tensor<128xi32, #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [8], order = [0]>>
  // expected-error @+1 {{expected every tile to have a distributed layout once some do, got 'tensor<128xi32>'}}
  %j = tile.iota : tensor<128xi32>
  tile.store_block %d[%c0], %j : !tile.desc<128xi32>, tensor<128xi32>
  return
}
