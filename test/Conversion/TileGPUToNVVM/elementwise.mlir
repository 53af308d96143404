// Tile constants and elementwise math on tiles of one layout become one
// scalar op per register (arith's verifiers already keep operands of
// elementwise ops in one layout); f32 exp2, exp, log2, log and tanh the
// approximate PTX instructions (ex2 with subnormal results flushed).
// RUN: tilec-opt %s --convert-tilegpu-to-nvvm | FileCheck %s

#wgmma = #tilegpu.wgmma<warpgroups = 1>

// 64x8 on one warpgroup: 4 f32 registers per thread.
// CHECK-LABEL: func.func @scale
// CHECK-SAME: (%[[X:.+]]: !llvm.struct<(f32, f32, f32, f32)>) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK: %[[C:.+]] = llvm.mlir.constant(5.000000e-01 : f32) : f32
// CHECK-COUNT-4: llvm.insertvalue %[[C]]
// CHECK-COUNT-4: arith.mulf {{.*}} fastmath<contract> : f32
// CHECK-NOT: arith.mulf
// CHECK-COUNT-4: llvm.inline_asm "ex2.approx.ftz.f32 $0, $1;", "=f,f" {{.*}} : (f32) -> f32
// CHECK-NOT: math.exp2
func.func @scale(%x: tensor<64x8xf32, #wgmma>) -> tensor<64x8xf32, #wgmma> {
  %half = arith.constant dense<0.5> : tensor<64x8xf32, #wgmma>
  %y = arith.mulf %x, %half fastmath<contract> : tensor<64x8xf32, #wgmma>
  %z = math.exp2 %y : tensor<64x8xf32, #wgmma>
  return %z : tensor<64x8xf32, #wgmma>
}

// exp(x) = ex2(x log2 e), log(x) = lg2(x) ln 2; other element types keep
// the math op (for the upstream conversion).
// CHECK-LABEL: func.func @approximate
// CHECK: llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: llvm.inline_asm "ex2.approx.ftz.f32
// CHECK: llvm.inline_asm "lg2.approx.f32
// CHECK-NEXT: llvm.mlir.constant(0.693147
// CHECK-NEXT: llvm.fmul
// CHECK: llvm.inline_asm "tanh.approx.f32
// CHECK: math.exp2 {{.*}} : f16
func.func @approximate(%x: tensor<64x8xf32, #wgmma>, %h: tensor<64x8xf16, #wgmma>) -> (tensor<64x8xf32, #wgmma>, tensor<64x8xf16, #wgmma>) {
  %e = math.exp %x : tensor<64x8xf32, #wgmma>
  %l = math.log %e : tensor<64x8xf32, #wgmma>
  %t = math.tanh %l : tensor<64x8xf32, #wgmma>
  %h2 = math.exp2 %h : tensor<64x8xf16, #wgmma>
  return %t, %h2 : tensor<64x8xf32, #wgmma>, tensor<64x8xf16, #wgmma>
}
