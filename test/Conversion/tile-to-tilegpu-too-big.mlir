// A tile with more elements than a thread's registers can hold (256 per
// thread: 32768 at 4 warps, 65536 at 8) is an error at its op, at once —
// not an out-of-memory abort or minutes of compile time. The bound counts
// the warps, and holds up to 2^62 elements without overflowing.
// RUN: tilec-opt %s -split-input-file --convert-tile-to-tilegpu -verify-diagnostics
// RUN: not tilec-opt %s -split-input-file --convert-tile-to-tilegpu="num-warps=8" 2>&1 >/dev/null | FileCheck %s --check-prefix=W8
// RUN: not tilec %S/Inputs/huge-tile.mlir --emit=ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=DRIVER

// At the bound: 32768 elements over 128 threads.
func.func @at_bound() {
  %i = arith.constant dense<0> : tensor<128x256xi32>
  return
}

// -----

func.func @over_bound() {
  // expected-error @+1 {{tile 'tensor<256x256xi32>' has more than 256 elements per thread over 4 warps (the GPU lowering's bound: a thread's registers); use smaller blocks or more warps (--num-warps)}}
  %i = arith.constant dense<0> : tensor<256x256xi32>
  return
}

// -----

func.func @huge() {
  // expected-error @+1 {{tile 'tensor<1073741824x1073741824x1073741824xi32>' has more than 256 elements per thread}}
  %i = arith.constant dense<0> : tensor<1073741824x1073741824x1073741824xi32>
  return
}

// With 8 warps the 256x256 tile fits (256 per thread).
// W8-NOT: error: tile 'tensor<256x256xi32>'
// W8: error: tile 'tensor<1073741824x1073741824x1073741824xi32>'
// DRIVER: huge-tile.mlir:4:8: error: tile 'tensor<65536x65536xf32>' has more than 256 elements per thread over 4 warps
