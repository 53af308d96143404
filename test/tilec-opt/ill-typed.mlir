// Well-formed but ill-typed input: the verifier's message at the op's line and
// column, a non-zero exit, no crash.
// RUN: not tilec-opt %s 2>&1 | FileCheck %s

// CHECK: ill-typed.mlir:[[@LINE+3]]:8: error: 'tile.dot' op expected the columns of A (32) to equal the rows of B (64)
// CHECK-NOT: Stack dump
func.func @f(%a: tensor<16x32xbf16>, %b: tensor<64x16xbf16>, %c: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x32xbf16>, tensor<64x16xbf16> -> tensor<16x16xf32>
  return %d : tensor<16x16xf32>
}
