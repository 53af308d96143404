// A mask of positions that the loop does not change against a bound per
// row (a dK/dV program's keys, `key <= query`, `key < seq_k`): each
// register's constant part of the key is compared with the bound less the
// thread's part (64-bit difference, clamped), so the thread's keys take no
// registers across the loop (as values, one each: the fused d = 64
// backward's 32 spilled beside its scores). Keys made from the step
// (@keys_from_the_step, the forward's) keep the elementwise compare, and
// so do layouts where a thread holds fewer than 8 positions (a 64 x 64
// tile on 4 warps: 4 a thread). Here 16 x 256: 8 keys a thread.
// (The tilegpu lowering's; tile-to-llvm lowers compares as they are.)
// RUN: tilec %s --lowering=tilegpu --emit=llvm | FileCheck %s
// RUN: tilec %S/Inputs/position-compare-step.mlir --lowering=tilegpu --emit=llvm | FileCheck %s --check-prefix=STEP
// CHECK-LABEL: llvm.func @invariant_keys
// CHECK: llvm.intr.smax
// CHECK: llvm.intr.smin
// CHECK: llvm.trunc
// CHECK: llvm.icmp "sle" %{{.+}}, %{{.+}} : i32
// STEP-LABEL: llvm.func @keys_from_the_step
// STEP-NOT: llvm.intr.smin
// STEP: llvm.return
module {
  func.func @invariant_keys(%po: !tile.ptr<f32>, %o0: i32, %o1: i32, %os0: i64, %os1: i64,
                            %col0: i32, %n: i32) {
    %c0 = arith.constant 0 : i32
    %c64 = arith.constant 64 : i32
    %zero = arith.constant dense<0.000000e+00> : tensor<16x256xf32>
    %one = arith.constant dense<1.000000e+00> : tensor<16x256xf32>
    %do = tile.make_desc %po, [%o0, %o1], [%os0, %os1] : !tile.ptr<f32> -> !tile.desc<16x256xf32>
    %iota = tile.iota : tensor<256xi32>
    %riota = tile.iota : tensor<16xi32>
    %start = tile.splat %col0 : tensor<256xi32>
    %keys = arith.addi %start, %iota : tensor<256xi32>
    %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<16x256xf32>) : i32 {
      %rows0 = tile.splat %i : tensor<16xi32>
      %rows = arith.addi %rows0, %riota : tensor<16xi32>
      %k2 = tile.expand_dims %keys axis = 0 : tensor<256xi32> -> tensor<1x256xi32>
      %r2 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
      %kb = tile.broadcast %k2 : tensor<1x256xi32> -> tensor<16x256xi32>
      %rb = tile.broadcast %r2 : tensor<16x1xi32> -> tensor<16x256xi32>
      %keep = arith.cmpi sle, %kb, %rb : tensor<16x256xi32>
      %p = arith.select %keep, %one, %zero : tensor<16x256xi1>, tensor<16x256xf32>
      %next = arith.addf %acc, %p : tensor<16x256xf32>
      scf.yield %next : tensor<16x256xf32>
    }
    tile.store_block %do[%c0, %c0], %r : !tile.desc<16x256xf32>, tensor<16x256xf32>
    return
  }
}
