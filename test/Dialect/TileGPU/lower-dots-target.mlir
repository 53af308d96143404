// tilegpu-lower-dots reads arch and wgmma from the module's tilec.target
// when they are not given; bad dots and targets are errors.
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots -verify-diagnostics | FileCheck %s

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// CHECK-LABEL: func.func @from_target
// CHECK: tilegpu.warpgroup_dot
module attributes {tilec.target = {arch = "sm_90a", wgmma = true}} {
  func.func @from_target(%a: tensor<64x16xbf16, #a>, %b: tensor<16x64xbf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x64xbf16, #b> -> tensor<64x64xf32, #acc>
    return %d : tensor<64x64xf32, #acc>
  }
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
// CHECK-LABEL: func.func @sm80_target
// CHECK: tilegpu.mma
module attributes {tilec.target = {arch = "sm_80", wgmma = false}} {
  func.func @sm80_target(%a: tensor<64x16xbf16, #a>, %b: tensor<16x64xbf16, #b>, %c: tensor<64x64xf32, #acc>) -> tensor<64x64xf32, #acc> {
    %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x64xbf16, #b> -> tensor<64x64xf32, #acc>
    return %d : tensor<64x64xf32, #acc>
  }
}

// -----

// expected-error @+1 {{tilegpu-lower-dots: unsupported arch 'sm_70'; accepted: sm_80, sm_90a}}
module attributes {tilec.target = {arch = "sm_70"}} {
}

// -----

#bl = #tilegpu.blocked<size_per_thread = [1, 4], threads = [8, 4], warps = [4, 1], order = [1, 0]>
func.func @f32_operands(%a: tensor<32x16xf32, #bl>, %b: tensor<16x16xf32, #bl>, %c: tensor<32x16xf32, #bl>) -> tensor<32x16xf32, #bl> {
  // expected-error @+1 {{'tile.dot' op is lowered to tensor cores only as a 2-D bf16 or f16 product with an f32 accumulator}}
  %d = tile.dot %a, %b, %c : tensor<32x16xf32, #bl>, tensor<16x16xf32, #bl> -> tensor<32x16xf32, #bl>
  return %d : tensor<32x16xf32, #bl>
}

// -----

#bl = #tilegpu.blocked<size_per_thread = [1, 4], threads = [8, 4], warps = [4, 1], order = [1, 0]>
func.func @blocked_accumulator(%a: tensor<32x16xbf16, #bl>, %b: tensor<16x16xbf16, #bl>, %c: tensor<32x16xf32, #bl>) -> tensor<32x16xf32, #bl> {
  // expected-error @+1 {{'tile.dot' op expected an accumulator in an mma.sync layout and M, N, K multiples of 16, 8, 16; got 'tensor<32x16xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [8, 4], warps = [4, 1], order = [1, 0]>>' with K = 16}}
  %d = tile.dot %a, %b, %c : tensor<32x16xbf16, #bl>, tensor<16x16xbf16, #bl> -> tensor<32x16xf32, #bl>
  return %d : tensor<32x16xf32, #bl>
}

// -----

func.func @no_layouts(%a: tensor<32x16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  // expected-error @+1 {{'tile.dot' op expected tiles with layouts (run convert-tile-to-tilegpu first)}}
  %d = tile.dot %a, %b, %c : tensor<32x16xbf16>, tensor<16x16xbf16> -> tensor<32x16xf32>
  return %d : tensor<32x16xf32>
}
