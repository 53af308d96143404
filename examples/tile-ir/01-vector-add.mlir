// Vector add in the tile dialect: each program instance adds one block of
// 1024 elements through a tensor of pointers, masking the ragged tail.
// Grid: ceil(n / 1024) programs along axis 0.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// CHECK-LABEL: func.func @vector_add
// CHECK: tile.load {{.+}} mask
// CHECK: tile.store {{.+}} mask
func.func @vector_add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %out: !tile.ptr<f32>, %n: i32) {
  %c1024 = arith.constant 1024 : i32
  %pid = tile.program_id 0
  %start = arith.muli %pid, %c1024 : i32
  %lane = tile.iota : tensor<1024xi32>
  %base = tile.splat %start : tensor<1024xi32>
  %offs = arith.addi %base, %lane : tensor<1024xi32>
  %limit = tile.splat %n : tensor<1024xi32>
  %inb = arith.cmpi slt, %offs, %limit : tensor<1024xi32>

  %xp = tile.splat %x : tensor<1024x!tile.ptr<f32>>
  %xs = tile.addptr %xp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %yp = tile.splat %y : tensor<1024x!tile.ptr<f32>>
  %ys = tile.addptr %yp, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %op = tile.splat %out : tensor<1024x!tile.ptr<f32>>
  %os = tile.addptr %op, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>

  %a = tile.load %xs mask %inb : tensor<1024x!tile.ptr<f32>>
  %b = tile.load %ys mask %inb : tensor<1024x!tile.ptr<f32>>
  %sum = arith.addf %a, %b : tensor<1024xf32>
  tile.store %os, %sum mask %inb : tensor<1024x!tile.ptr<f32>>
  return
}
