// Ops and types the tile dialect does not have are located errors, not crashes.
// RUN: not tilec-opt %s -split-input-file 2>&1 | FileCheck %s

// CHECK: unknown-op.mlir:[[@LINE+2]]:8: error: custom op 'tile.matmul' is unknown
func.func @f(%a: tensor<16x16xbf16>) {
  %d = tile.matmul %a, %a : tensor<16x16xbf16>
  return
}

// -----

// CHECK: unknown-op.mlir:[[@LINE+1]]:24: error: unknown type `pointer` in dialect `tile`
func.func @g(%p: !tile.pointer<f32>) {
  return
}

// -----

// CHECK: unknown-op.mlir:[[@LINE+2]]:20: error: custom op 'tile.reduce' expected {{.*}} [sum, max, min]
func.func @h(%t: tensor<4x8xf32>) {
  %r = tile.reduce avg %t axis = 1 : tensor<4x8xf32> -> tensor<4xf32>
  return
}
