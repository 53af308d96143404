// The online softmax's exp2 (marked by tile-decompose-online-softmax) on one
// register in `exp2_on_fma` by the polynomial of
// include/tilec/Support/Exp2Polynomial.h, the others on MUFU; an unmarked
// exp2 always on MUFU.
// RUN: tilec-opt %s --convert-tilegpu-to-nvvm | FileCheck %s --check-prefix=FMA
// RUN: sed -e 's/exp2_on_fma = 2/exp2_on_fma = 0/' %s | tilec-opt --convert-tilegpu-to-nvvm | FileCheck %s --check-prefix=MUFU

#wgmma = #tilegpu.wgmma<warpgroups = 1>
module attributes {tilec.target = {exp2_on_fma = 2 : i64}} {
// FMA-LABEL: func.func @softmax_exp2
// FMA: llvm.inline_asm "ex2.approx.ftz.f32
// FMA: %[[LOW:.+]] = llvm.mlir.constant(-1.270000e+02 : f32)
// FMA: %[[X:.+]] = llvm.intr.maxnum(%{{.+}}, %[[LOW]])
// FMA: %[[ROUND:.+]] = llvm.mlir.constant(0x4B400000 : f32)
// FMA: %[[T:.+]] = llvm.fadd %[[X]], %[[ROUND]]
// FMA: %[[J:.+]] = llvm.fsub %[[T]], %[[ROUND]]
// FMA: %[[F:.+]] = llvm.fsub %[[X]], %[[J]]
// FMA: llvm.intr.fma(%{{.+}}, %[[F]], %{{.+}})
// FMA: llvm.intr.fma(%{{.+}}, %[[F]], %{{.+}})
// FMA: %[[P:.+]] = llvm.intr.fma(%{{.+}}, %[[F]], %{{.+}})
// FMA: %[[BITS:.+]] = llvm.bitcast %[[T]] : f32 to i32
// FMA: %[[SHIFTED:.+]] = llvm.shl %[[BITS]], %{{.+}}
// FMA: %[[BIASED:.+]] = llvm.add %[[SHIFTED]], %{{.+}}
// FMA: %[[SCALE:.+]] = llvm.bitcast %[[BIASED]] : i32 to f32
// FMA: llvm.fmul %[[P]], %[[SCALE]]
// FMA: llvm.inline_asm "ex2.approx.ftz.f32
// FMA: llvm.intr.maxnum
// FMA-LABEL: func.func @other_exp2
// FMA-COUNT-4: llvm.inline_asm "ex2.approx.ftz.f32
// FMA-NOT: llvm.intr.maxnum
// MUFU-LABEL: func.func @softmax_exp2
// MUFU-COUNT-4: llvm.inline_asm "ex2.approx.ftz.f32
// MUFU-NOT: llvm.intr.maxnum
func.func @softmax_exp2(%x: tensor<64x8xf32, #wgmma>) -> tensor<64x8xf32, #wgmma> {
  %p = math.exp2 %x {tilec.softmax_exp2} : tensor<64x8xf32, #wgmma>
  return %p : tensor<64x8xf32, #wgmma>
}
func.func @other_exp2(%x: tensor<64x8xf32, #wgmma>) -> tensor<64x8xf32, #wgmma> {
  %p = math.exp2 %x : tensor<64x8xf32, #wgmma>
  return %p : tensor<64x8xf32, #wgmma>
}
}
