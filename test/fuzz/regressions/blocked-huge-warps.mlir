

#acc = #tilegpu.mma<warps = [2, 2]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 65536], order = [1, 0]>
// A computed in the kernel, and read twice: converted, not retyped. The
// warp grid [2, 2] is not wgmma's: mma.sync on every arch.
// SM80-LABEL: func.func @computed
// SM80: %[[X:.*]] = arith.addf
// SM80: tilegpu.convert_layout %[[X]] : tensor<32x32xbf16, #tilegpu.blocked{{.*}}> -> tensor<32x32xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>
// SM80: tilegpu.convert_layout %[[X]] : {{.*}} -> tensor<32x32xbf16, #tilegpu.mma_operand<index = 1, warps = [2, 2]>>
// SM80: tilegpu.mma
// SM90-LABEL: func.func @computed
// SM90-NOT: warpgroup_dot
// SM90: tilegpu.mma
func.func @computed(%x: tensor<32x32xbf16, #bl>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
  %a = arith.addf %x, %x : tensor<32x32xbf16, #bl>
  %d = tile.dot %a, %a, %c : tensor<32x32xbf16, #bl>, tensor<32x32xbf16, #bl> -> tensor<32x32xf32, #acc>
  return %d : tensor<32x32xf32, #acc>
}

