// Tile constants and elementwise math on tiles of one layout become one
// scalar op per register (arith's verifiers already keep operands of
// elementwise ops in one layout).
// RUN: tilec-opt %s --convert-tilegpu-to-nvvm | FileCheck %s

#wgmma = #tilegpu.wgmma<warpgroups = 1>

// 64x8 on one warpgroup: 4 f32 registers per thread.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[X:.+]]: !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[C:.+]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-COUNT-4: llvm.insertvalue %[[C]]
// CHECK-COUNT-4: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK-NOT: arith.mulf
// CHECK-COUNT-4: math.exp2 {{.*}} : f32
func.func @scale(%x: tensor<64x8xf32, #wgmma>) -> tensor<64x8xf32, #wgmma> {
  %half = arith.constant dense<0.5> : tensor<64x8xf32, #wgmma>
  %y = arith.mulf %x, %half fastmath<contract> : tensor<64x8xf32, #wgmma>
  %z = math.exp2 %y : tensor<64x8xf32, #wgmma>
  return %z : tensor<64x8xf32, #wgmma>
}
