// RUN: tilec-opt %s --tile-prefetch-loads -split-input-file | FileCheck %s

// The block at the induction variable is loaded one iteration ahead: the first
// before the loop, the next at the top of the body, handed over as a
// loop-carried value. The load at an offset that is not the induction
// variable stays where it is.
// CHECK-LABEL: func.func @stream
// CHECK-SAME: (%[[D:.+]]: !tile.desc<16x16xf32>, %[[N:.+]]: i32, %[[H:.+]]: i32)
// CHECK: %[[C0:.+]] = arith.constant 0 : i32
// CHECK: %[[C16:.+]] = arith.constant 16 : i32
// CHECK: %[[FIRST:.+]] = tile.load_block %[[D]][%[[C0]], %[[C0]]]
// CHECK: scf.for %[[IV:.+]] = %[[C0]] to %[[N]] step %[[C16]] iter_args(%[[ACC:.+]] = %{{.+}}, %[[CUR:.+]] = %[[FIRST]])
// CHECK-NEXT: %[[NEXTIV:.+]] = arith.addi %[[IV]], %[[C16]]
// CHECK-NEXT: %[[NEXT:.+]] = tile.load_block %[[D]][%[[NEXTIV]], %[[C0]]]
// CHECK: arith.addf %[[ACC]], %[[CUR]]
// CHECK: tile.load_block %[[D]][%[[H]], %{{.+}}]
// CHECK: scf.yield %{{.+}}, %[[NEXT]]
func.func @stream(%d: !tile.desc<16x16xf32>, %n: i32, %h: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %r = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %zero) -> (tensor<16x16xf32>) : i32 {
    %blk = tile.load_block %d[%i, %c0] : !tile.desc<16x16xf32> -> tensor<16x16xf32>
    %sum = arith.addf %acc, %blk : tensor<16x16xf32>
    %tail = arith.addi %h, %i : i32
    %other = tile.load_block %d[%h, %tail] : !tile.desc<16x16xf32> -> tensor<16x16xf32>
    %both = arith.addf %sum, %other : tensor<16x16xf32>
    scf.yield %both : tensor<16x16xf32>
  }
  return %r : tensor<16x16xf32>
}
