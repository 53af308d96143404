// A matmul whose K range is split in two consecutive loops; the second
// streams B from descriptor DESC (the same one as the first loop, or not).
module {
  func.func @two_loops(%arg0: !tile.ptr<bf16>, %arg1: i32, %arg2: i32, %arg3: i64, %arg4: i64, %arg5: !tile.ptr<bf16>, %arg6: i32, %arg7: i32, %arg8: i64, %arg9: i64, %arg10: !tile.ptr<f32>, %arg11: i32, %arg12: i32, %arg13: i64, %arg14: i64) {
    %c32_i32 = arith.constant 32 : i32
    %c64_i32 = arith.constant 64 : i32
    %c0_i32 = arith.constant 0 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = tile.make_desc %arg0, [%arg1, %arg2], [%arg3, %arg4] : !tile.ptr<bf16> -> !tile.desc<64x32xbf16>
    %1 = tile.make_desc %arg5, [%arg6, %arg7], [%arg8, %arg9] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
    %b2 = tile.make_desc %arg5, [%arg7, %arg6], [%arg8, %arg9] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
    %2 = tile.make_desc %arg10, [%arg11, %arg12], [%arg13, %arg14] : !tile.ptr<f32> -> !tile.desc<64x64xf32>
    %3 = tile.program_id 0
    %4 = arith.muli %3, %c64_i32 : i32
    %5 = tile.program_id 1
    %6 = arith.muli %5, %c64_i32 : i32
    %half = arith.divsi %arg2, %c64_i32 : i32
    %mid = arith.muli %half, %c32_i32 : i32
    %7 = scf.for %k = %c0_i32 to %mid step %c32_i32 iter_args(%acc = %cst) -> (tensor<64x64xf32>)  : i32 {
      %a = tile.load_block %0[%4, %k] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16>
      %b = tile.load_block %1[%k, %6] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16>
      %d = tile.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    %8 = scf.for %k = %mid to %arg2 step %c32_i32 iter_args(%acc = %7) -> (tensor<64x64xf32>)  : i32 {
      %a = tile.load_block %0[%4, %k] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16>
      %b = tile.load_block DESC[%k, %6] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16>
      %d = tile.dot %a, %b, %acc : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
      scf.yield %d : tensor<64x64xf32>
    }
    tile.store_block %2[%4, %6], %8 : !tile.desc<64x64xf32>, tensor<64x64xf32>
    return
  }
}
