// A tile-typed argument has no layout to start from: an error naming it
// (instead of a crash in layout assignment), on both lowerings; a kernel
// declaration without a body is an error of the kernel lowering.
// RUN: tilec-opt %s --convert-tile-to-tilegpu -verify-diagnostics --mlir-print-op-on-diagnostic=false
// RUN: not tilec %s --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not tilec %s --lowering=tilegpu --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not tilec %S/Inputs/declaration.mlir --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=DECLARATION
// DRIVER: error: tile arguments cannot be placed on threads; argument 0 is 'tensor<4x8xf32>' (pass pointers and sizes, and make tiles inside the kernel from tile.make_desc descriptors)
// DECLARATION: error: 'k' is a declaration; a kernel needs a body

// expected-error @+1 {{tile arguments cannot be placed on threads; argument 0 is 'tensor<4x8xf32>'}}
func.func @k(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %t = tile.trans %x order = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
