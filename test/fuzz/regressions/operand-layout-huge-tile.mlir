

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// CHECK-LABEL: func.func @sm80_target
// CHECK: tilegpu.mma
module attributes {tilec.target = {arch = "sm_80", wgmma = false}} {
  func.func @sm80_target(%a: tensor<64x16xbf16, #a>, %b: tensor<4294967296x64xbf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x64xbf16, #b> -> tensor<64x64xf32, #acc>
    return %d : tensor<64x64xf32, #acc>
  }
}

