// tilegpu.convert_layout folds: to its source when the layouts are the
// same, to one conversion from the first source of a chain, to a constant
// of the result's layout for a splat constant.
// RUN: tilec-opt %s --canonicalize | FileCheck %s

#bl = #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#m = #tilegpu.mma<warps = [4, 1]>
#t = #tilegpu.blocked<size_per_thread = [4, 1], threads = [8, 4], warps = [1, 4], order = [0, 1]>

// CHECK-LABEL: func.func @splat
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>
// CHECK-NEXT: return %[[C]]
func.func @splat() -> tensor<64x64xf32, #m> {
  %c = arith.constant dense<1.5> : tensor<64x64xf32, #bl>
  %m = tilegpu.convert_layout %c : tensor<64x64xf32, #bl> -> tensor<64x64xf32, #m>
  return %m : tensor<64x64xf32, #m>
}

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[X:.*]]: tensor
// CHECK-NEXT: %[[Y:.*]] = tilegpu.convert_layout %[[X]] : tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4]{{.*}}>> -> tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>
// CHECK-NEXT: return %[[Y]]
func.func @chain(%x: tensor<64x64xf32, #bl>) -> tensor<64x64xf32, #m> {
  %t = tilegpu.convert_layout %x : tensor<64x64xf32, #bl> -> tensor<64x64xf32, #t>
  %m = tilegpu.convert_layout %t : tensor<64x64xf32, #t> -> tensor<64x64xf32, #m>
  return %m : tensor<64x64xf32, #m>
}

// CHECK-LABEL: func.func @identity
// CHECK-NEXT: return %arg0
func.func @identity(%x: tensor<64x64xf32, #m>) -> tensor<64x64xf32, #m> {
  %same = tilegpu.convert_layout %x : tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return %same : tensor<64x64xf32, #m>
}
