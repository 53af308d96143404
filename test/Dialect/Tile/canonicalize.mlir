// Folds and canonicalization patterns of the tile dialect.
// RUN: tilec-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @trans_of_trans_is_identity
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NOT: tile.trans
// CHECK: return %[[X]]
func.func @trans_of_trans_is_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = tile.trans %x order = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %u = tile.trans %t order = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %u : tensor<4x8xf32>
}

// -----

// Two 3-D rotations compose into one trans of the original value.
// CHECK-LABEL: func.func @trans_of_trans_composes
// CHECK-SAME: (%[[X:.+]]: tensor<2x3x4xf32>)
// CHECK: %[[T:.+]] = tile.trans %[[X]] order = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
// CHECK-NOT: tile.trans
// CHECK: return %[[T]]
func.func @trans_of_trans_composes(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %t = tile.trans %x order = [1, 2, 0] : tensor<2x3x4xf32> -> tensor<3x4x2xf32>
  %u = tile.trans %t order = [1, 2, 0] : tensor<3x4x2xf32> -> tensor<4x2x3xf32>
  return %u : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @trans_identity_order
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @trans_identity_order(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = tile.trans %x order = [0, 1] : tensor<4x8xf32> -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[S:.+]] = tile.splat %[[X]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @broadcast_of_splat(%x: f32) -> tensor<4x8xf32> {
  %s = tile.splat %x : tensor<4x1xf32>
  %b = tile.broadcast %s : tensor<4x1xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_to_same_type
// CHECK-SAME: (%[[X:.+]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @broadcast_to_same_type(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = tile.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_splat
// CHECK-SAME: (%[[X:.+]]: i32)
// CHECK-NEXT: %[[S:.+]] = tile.splat %[[X]] : tensor<1x4xi32>
// CHECK-NEXT: return %[[S]]
func.func @expand_dims_of_splat(%x: i32) -> tensor<1x4xi32> {
  %s = tile.splat %x : tensor<4xi32>
  %e = tile.expand_dims %s axis = 0 : tensor<4xi32> -> tensor<1x4xi32>
  return %e : tensor<1x4xi32>
}

// -----

// CHECK-LABEL: func.func @trans_of_splat
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[S:.+]] = tile.splat %[[X]] : tensor<8x4xf32>
// CHECK-NEXT: return %[[S]]
func.func @trans_of_splat(%x: f32) -> tensor<8x4xf32> {
  %s = tile.splat %x : tensor<4x8xf32>
  %t = tile.trans %s order = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// -----

// CHECK-LABEL: func.func @splat_of_constant
// CHECK-NEXT: %[[C:.+]] = arith.constant dense<2.500000e+00> : tensor<4x8xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_of_constant() -> tensor<4x8xf32> {
  %c = arith.constant 2.5 : f32
  %s = tile.splat %c : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @reduce_max_of_splat
// CHECK-SAME: (%[[X:.+]]: f32)
// CHECK-NEXT: %[[S:.+]] = tile.splat %[[X]] : tensor<4xf32>
// CHECK-NEXT: return %[[S]], %[[X]]
func.func @reduce_max_of_splat(%x: f32) -> (tensor<4xf32>, f32) {
  %s = tile.splat %x : tensor<4x8xf32>
  %r = tile.reduce max %s axis = 1 : tensor<4x8xf32> -> tensor<4xf32>
  %v = tile.splat %x : tensor<16xf32>
  %m = tile.reduce min %v axis = 0 : tensor<16xf32> -> f32
  return %r, %m : tensor<4xf32>, f32
}

// -----

// A sum over n equal elements is one multiply by n.
// CHECK-LABEL: func.func @reduce_sum_of_splat
// CHECK-SAME: (%[[X:.+]]: f32, %[[I:.+]]: i32)
// CHECK-DAG: %[[EIGHT:.+]] = arith.constant 8.000000e+00 : f32
// CHECK-DAG: %[[SIXTEEN:.+]] = arith.constant 16 : i32
// CHECK-DAG: %[[F:.+]] = arith.mulf %[[X]], %[[EIGHT]] : f32
// CHECK-DAG: %[[S:.+]] = tile.splat %[[F]] : tensor<4xf32>
// CHECK-DAG: %[[N:.+]] = arith.muli %[[I]], %[[SIXTEEN]] : i32
// CHECK: return %[[S]], %[[N]]
func.func @reduce_sum_of_splat(%x: f32, %i: i32) -> (tensor<4xf32>, i32) {
  %s = tile.splat %x : tensor<4x8xf32>
  %r = tile.reduce sum %s axis = 1 : tensor<4x8xf32> -> tensor<4xf32>
  %v = tile.splat %i : tensor<16xi32>
  %n = tile.reduce sum %v axis = 0 : tensor<16xi32> -> i32
  return %r, %n : tensor<4xf32>, i32
}

// -----

// f16 -> f32 -> f16 is exact; f32 -> bf16 -> f32 is not and stays.
// CHECK-LABEL: func.func @cast_round_trip
// CHECK-SAME: (%[[H:.+]]: tensor<4xf16>, %[[F:.+]]: tensor<4xf32>)
// CHECK: %[[B:.+]] = tile.cast %[[F]] : tensor<4xf32> to tensor<4xbf16>
// CHECK: %[[W:.+]] = tile.cast %[[B]] : tensor<4xbf16> to tensor<4xf32>
// CHECK: return %[[H]], %[[W]], %[[F]]
func.func @cast_round_trip(%h: tensor<4xf16>, %f: tensor<4xf32>) -> (tensor<4xf16>, tensor<4xf32>, tensor<4xf32>) {
  %w = tile.cast %h : tensor<4xf16> to tensor<4xf32>
  %n = tile.cast %w : tensor<4xf32> to tensor<4xf16>
  %b = tile.cast %f : tensor<4xf32> to tensor<4xbf16>
  %r = tile.cast %b : tensor<4xbf16> to tensor<4xf32>
  %same = tile.cast %f : tensor<4xf32> to tensor<4xf32>
  return %n, %r, %same : tensor<4xf16>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.+]]: tensor<4x!tile.ptr<f32>>)
// CHECK-NEXT: return %[[P]]
func.func @addptr_zero(%p: tensor<4x!tile.ptr<f32>>) -> tensor<4x!tile.ptr<f32>> {
  %z = arith.constant dense<0> : tensor<4xi32>
  %q = tile.addptr %p, %z : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  return %q : tensor<4x!tile.ptr<f32>>
}

// -----

// Pure ops without uses disappear; memory ops stay.
// CHECK-LABEL: func.func @dead_code
// CHECK-NOT: tile.dot
// CHECK: tile.store_block
func.func @dead_code(%a: tensor<16x16xbf16>, %c: tensor<16x16xf32>, %d: !tile.desc<16x16xf32>, %i: i32) {
  %r = tile.dot %a, %a, %c : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  tile.store_block %d[%i, %i], %c : !tile.desc<16x16xf32>, tensor<16x16xf32>
  return
}

// -----

// CHECK-LABEL: func.func @reshape_chain
// CHECK-SAME: (%[[X:.+]]: tensor<1x128x64xbf16>, %[[Y:.+]]: f32)
// CHECK-NEXT: %[[R:.+]] = tile.reshape %[[X]] : tensor<1x128x64xbf16> -> tensor<8192xbf16>
// CHECK-NEXT: %[[S:.+]] = tile.splat %[[Y]] : tensor<32xf32>
// CHECK-NEXT: return %[[R]], %[[X]], %[[S]]
func.func @reshape_chain(%x: tensor<1x128x64xbf16>, %y: f32) -> (tensor<8192xbf16>, tensor<1x128x64xbf16>, tensor<32xf32>) {
  %a = tile.reshape %x : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
  %b = tile.reshape %a : tensor<128x64xbf16> -> tensor<8192xbf16>
  %c = tile.reshape %a : tensor<128x64xbf16> -> tensor<1x128x64xbf16>
  %s = tile.splat %y : tensor<4x8xf32>
  %t = tile.reshape %s : tensor<4x8xf32> -> tensor<32xf32>
  return %b, %c, %t : tensor<8192xbf16>, tensor<1x128x64xbf16>, tensor<32xf32>
}
