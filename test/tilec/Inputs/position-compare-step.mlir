// @keys_from_the_step of position-compare.mlir (one kernel a file).
module {
  func.func @keys_from_the_step(%po: !tile.ptr<f32>, %o0: i32, %o1: i32, %os0: i64, %os1: i64,
                                %row0: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x256xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<16x256xf32>
    %do = tile.make_desc %po, [%o0, %o1], [%os0, %os1] : !tile.ptr<f32> -> !tile.desc<16x256xf32>
    %iota = tile.iota : tensor<256xi32>
    %riota = tile.iota : tensor<16xi32>
    %start = tile.splat %row0 : tensor<16xi32>
    %rows = arith.addi %start, %riota : tensor<16xi32>
    %r = scf.for %j = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<16x256xf32>) : i32 {
      %keys0 = tile.splat %j : tensor<256xi32>
      %keys = arith.addi %keys0, %iota : tensor<256xi32>
      %k2 = tile.expand_dims %keys axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
      %r2 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
      %kb = tile.broadcast %k2 : tensor<1x256xi32> -> tensor<16x256xi32>
      %rb = tile.broadcast %r2 : tensor<16x1xi32> -> tensor<16x256xi32>
      %keep = arith.cmpi sle, %kb, %rb : tensor<16x256xi32>
      %p = arith.select %keep, %one, %zero : tensor<16x256xi1>, tensor<16x256xf32>
      %next = arith.addf %acc, %p : tensor<16x256xf32>
      scf.yield %next : tensor<16x256xf32>
    }
    tile.store_block %do[%c0, %c0], %r : !tile.desc<16x256xf32>, tensor<16x256xf32>
    return
  }
}
