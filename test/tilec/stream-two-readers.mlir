// One streamed block read by two dots, one of them through a transpose (the
// attention backward's Q in K·Qᵀ and dSᵀ·Q): a single cp.async ring feeds
// both, each reading the slot its own way (ldmatrix with and without .trans),
// from one copy per iteration.
// RUN: tilec %s --assume-aligned --pipeline-stages=2 --emit=llvm | FileCheck %s
// Before the change the second use (the transpose) kept the block out of the
// ring: no cp.async at all.
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: nvvm.cp.async.commit.group
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x2.shared.b16
module {
  func.func @two_readers(%pa: !tile.ptr<bf16>, %a0: i32, %a1: i32, %as0: i64, %as1: i64, %pb: !tile.ptr<bf16>, %b0: i32, %b1: i32, %bs0: i64, %bs1: i64, %pc: !tile.ptr<f32>, %c0: i32, %c1: i32, %cs0: i64, %cs1: i64, %pd: !tile.ptr<f32>, %d0: i32, %d1: i32, %ds0: i64, %ds1: i64) {
    %c32_i32 = arith.constant 32 : i32
    %c0_i32 = arith.constant 0 : i32
    %zero1 = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %zero2 = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
    %da = tile.make_desc %pa, [%a0, %a1], [%as0, %as1] : !tile.ptr<bf16> -> !tile.desc<64x32xbf16>
    %da2 = tile.make_desc %pa, [%a0, %a1], [%as0, %as1] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
    %db = tile.make_desc %pb, [%b0, %b1], [%bs0, %bs1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
    %dc = tile.make_desc %pc, [%c0, %c1], [%cs0, %cs1] : !tile.ptr<f32> -> !tile.desc<64x64xf32>
    %dd = tile.make_desc %pd, [%d0, %d1], [%ds0, %ds1] : !tile.ptr<f32> -> !tile.desc<64x32xf32>
    %a = tile.load_block %da[%c0_i32, %c0_i32] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16>
    %a2 = tile.load_block %da2[%c0_i32, %c0_i32] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16>
    %r:2 = scf.for %k = %c0_i32 to %b0 step %c32_i32 iter_args(%x = %zero1, %y = %zero2) -> (tensor<64x64xf32>, tensor<64x32xf32>) : i32 {
      %b = tile.load_block %db[%k, %c0_i32] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16>
      %bt = tile.trans %b order = [1, 0] : tensor<32x64xbf16> -> tensor<64x32xbf16>
      %x2 = tile.dot %a, %b, %x : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
      %y2 = tile.dot %a2, %bt, %y : tensor<64x64xbf16>, tensor<64x32xbf16> -> tensor<64x32xf32>
      scf.yield %x2, %y2 : tensor<64x64xf32>, tensor<64x32xf32>
    }
    tile.store_block %dc[%c0_i32, %c0_i32], %r#0 : !tile.desc<64x64xf32>, tensor<64x64xf32>
    tile.store_block %dd[%c0_i32, %c0_i32], %r#1 : !tile.desc<64x32xf32>, tensor<64x32xf32>
    return
  }
}
