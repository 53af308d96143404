// Fuzzer seed 6 (session 11): result number 2147483648 of a two-result loop
// made MLIR 22's parser run out of memory (mlir-opt too): refused before
// parsing.
func.func @two_results(%pd: !tile.ptr<f32>, %d0: i32, %d1: i32, %ds0: i64, %ds1: i64) {
  %c0_i32 = arith.constant 0 : i32
  %c1_i32 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
  %dd = tile.make_desc %pd, [%d0, %d1], [%ds0, %ds1] : !tile.ptr<f32> -> !tile.desc<64x32xf32>
  %r:2 = scf.for %k = %c0_i32 to %d0 step %c1_i32 iter_args(%x = %zero, %y = %zero) -> (tensor<64x32xf32>, tensor<64x32xf32>) : i32 {
    scf.yield %x, %y : tensor<64x32xf32>, tensor<64x32xf32>
  }
  tile.store_block %dd[%c0_i32, %c0_i32], %r#2147483648 : !tile.desc<64x32xf32>, tensor<64x32xf32>
  return
}
