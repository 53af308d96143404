// One value per program (tile.load_scalar: a sequence's offset, a page of
// the block table) on the tile-to-llvm path: a predicated global load whose
// destination starts as the fill value (zero without a mask), so a masked-off
// load reads nothing.
// RUN: tilec %s --emit=llvm | FileCheck %s
// CHECK-LABEL: llvm.func @offsets
// CHECK-DAG: %[[TRUE:.*]] = llvm.mlir.constant(true) : i1
// CHECK-DAG: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[A:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $3;{{.*}}@$2 ld.global.b32 $0, [$1];", "=r,l,b,r" %arg0, %[[TRUE]], %[[ZERO]]
// CHECK: %[[B:.*]] = llvm.inline_asm has_side_effects "mov.b32 $0, $3;{{.*}}@$2 ld.global.b32 $0, [$1];", "=r,l,b,r" %arg0, %arg2, %arg1
// CHECK: llvm.add %[[A]], %[[B]]
// CHECK: llvm.getelementptr %arg3[%[[A]]]
func.func @offsets(%p: !tile.ptr<i32>, %fill: i32, %keep: i1, %out: !tile.ptr<i32>) {
  %a = tile.load_scalar %p : !tile.ptr<i32>
  %b = tile.load_scalar %p mask %keep other %fill : !tile.ptr<i32>
  %s = arith.addi %a, %b : i32
  %q = tile.addptr %out, %a : !tile.ptr<i32>, i32
  %v = tile.splat %s : tensor<32xi32>
  %qs = tile.splat %q : tensor<32x!tile.ptr<i32>>
  tile.store %qs, %v : tensor<32x!tile.ptr<i32>>
  return
}
