// RUN: tilec-opt %s --tile-to-llvm="num-warps=4" | FileCheck %s --check-prefix=RED
// RUN: tilec-opt %s --tile-to-llvm="num-warps=4 wgmma=true" | FileCheck %s --check-prefix=BULK
// RUN: tilec-opt %s --tile-to-llvm="num-warps=4 wgmma=true assume-aligned=true" | FileCheck %s --check-prefix=ALIGNED

// tile.atomic_add_block of a 32x64 f32 tile on 128 threads (16 elements each).
//
// sm_80: one predicated red.global.add.f32 per element.
// RED-LABEL: llvm.func @add_rows
// RED-COUNT-16: red.global.add.f32
// RED-NOT: red.global
// RED-NOT: cp.reduce.async.bulk
// RED: llvm.return
//
// sm_90 (the wgmma targets): the rows go through shared memory (32 rows of
// 64 + 8 padding f32: 9216 bytes), the writers fence for the async proxy and
// meet, then threads 0-31 each add one row with cp.reduce.async.bulk (its
// in-bounds columns, a multiple of 16 bytes), and wait until the rows are
// read. Without assume-aligned, a branch checks the alignment that needs
// and keeps the per-element red.global as the fallback.
// BULK-LABEL: llvm.func @add_rows
// BULK-SAME: tilec.shared_bytes = 9216
// BULK: scf.if %{{[0-9]+}} {
// BULK-NEXT: nvvm.barrier0
// BULK-COUNT-16: llvm.store %{{.*}} : f32, !llvm.ptr<3>
// BULK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// BULK-NEXT: nvvm.barrier0
// BULK: %[[ROW:.*]] = llvm.getelementptr %arg1[
// BULK: %[[FIRST32:.*]] = arith.cmpi ult, %{{.*}}, %c32_i32{{.*}} : i32
// BULK: %[[PRED:.*]] = arith.andi %{{.*}}, %[[FIRST32]] : i1
// BULK: arith.muli %{{.*}}, %c72_i32
// BULK: llvm.inline_asm has_side_effects "{{.*}}sub.s32 n, $2, $3;{{.*}}min.s32 n, n, 64;{{.*}}shl.b32 n, n, 2;{{.*}}@$4 cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], n;{{.*}}" %[[ROW]], %{{.*}}, %arg3, %{{.*}}, %[[PRED]]
// BULK-NEXT: llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;\0A\09cp.async.bulk.wait_group.read 0;"
// BULK-NEXT: } else {
// BULK-COUNT-16: red.global.add.f32
// BULK: llvm.return
//
// With assume-aligned (the runtime checks the tensor at launch): no branch,
// no fallback.
// ALIGNED-LABEL: llvm.func @add_rows
// ALIGNED-NOT: red.global
// ALIGNED: cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32
// ALIGNED-NOT: red.global
// ALIGNED: llvm.return
func.func @add_rows(%src: !tile.ptr<f32>, %dst: !tile.ptr<f32>, %m: i32, %n: i32, %ld: i64) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %s = tile.make_desc %src, [%m, %n], [%ld, %c1] : !tile.ptr<f32> -> !tile.desc<32x64xf32>
  %v = tile.load_block %s[%c0, %c0] : !tile.desc<32x64xf32> -> tensor<32x64xf32>
  %d = tile.make_desc %dst, [%m, %n], [%ld, %c1] : !tile.ptr<f32> -> !tile.desc<32x64xf32>
  tile.atomic_add_block %d[%c0, %c0], %v : !tile.desc<32x64xf32>, tensor<32x64xf32>
  return
}
