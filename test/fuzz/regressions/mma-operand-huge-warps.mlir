// tilegpu-lower-dots reads arch and wgmma from the module's tilec.target
// when they are not given; bad dots and targets are errors.
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots -verify-diagnostics | FileCheck %s

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 65536]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// CHECK-LABEL: func.func @from_target
// CHECK: tilegpu.warpgroup_dot
module attributes {tilec.target = {arch = "sm_90a", wgmma = true}} {
  func.func @from_target(%a: tensor<64x16xbf16, #a>, %b: tensor<16x64xbf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x64xbf16, #b> -> tensor<64x64xf32, #acc>
    return %d : tensor<64x64xf32, #acc>
  }
}

