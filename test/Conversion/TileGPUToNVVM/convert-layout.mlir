// A layout conversion within threads picks registers; one across threads is
// an error that says how to write it.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
// P (the accumulator of S, as bf16) is wgmma's A fragment already: register
// i of the result is register i of the source here (32 of them at 64x64),
// so the registers are the source's, untouched.
// CHECK-LABEL: func.func @p_as_operand
// CHECK-NEXT: return %arg0
func.func @p_as_operand(%p: tensor<64x64xbf16, #wgmma>) -> tensor<64x64xbf16, #wgmmaA> {
  %a = tilegpu.convert_layout %p : tensor<64x64xbf16, #wgmma> -> tensor<64x64xbf16, #wgmmaA>
  return %a : tensor<64x64xbf16, #wgmmaA>
}

// -----

#mma = #tilegpu.mma<warps = [4, 1]>
#blocked = #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>
func.func @across_threads(%x: tensor<64x64xf32, #mma>) {
  // expected-error @+2 {{'tilegpu.convert_layout' op expected a conversion within threads (one across threads goes through shared memory: tilegpu-lower-conversions, or tilegpu.local_store then local_load)}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.convert_layout'}}
  %y = tilegpu.convert_layout %x : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked>
  return
}
