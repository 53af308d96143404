// Malformed input: a located error, a non-zero exit, no crash.
// `not` fails on a crash, so a stack dump would fail the first RUN line too.
// RUN: not tilec-opt %s 2>&1 | FileCheck %s
// RUN: not tilec-opt %s --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// CHECK: malformed-syntax.mlir:[[@LINE+3]]:29: error: expected ']'
// CHECK-NOT: Stack dump
func.func @f(%d: !tile.desc<64xbf16>, %i: i32) {
  %b = tile.load_block %d[%i : !tile.desc<64xbf16> -> tensor<64xbf16>
  return
}
