// cp.async of a descriptor block into a shared buffer: 16-byte chunks, one
// per thread per round, src-size clamped at the tensor's end (zero fill),
// padded or swizzled destinations; a ragged last round is guarded.
// RUN: tilec-opt %s -split-input-file --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm \
// RUN:   -verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s

// 64 rows of 128 bytes = 512 chunks over 128 threads: four rounds, no guard.
// CHECK-LABEL: func.func @k_block
// CHECK-SAME: nvvm.reqntid
// CHECK-NOT: scf.if
// CHECK-COUNT-4: nvvm.cp.async.shared.global %{{.*}}, %{{.*}}, 16, cache = cg, %{{.*}} : !llvm.ptr<3>, !llvm.ptr<1>, i32
// CHECK-NOT: nvvm.cp.async.shared.global
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
func.func @k_block(%k: !tile.ptr<bf16>, %seq: i32, %n: i32) attributes {nvvm.reqntid = array<i32: 128>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %s1 = arith.constant 1 : i64
  %s64 = arith.constant 64 : i64
  %d = tile.make_desc %k, [%seq, %c64], [%s64, %s1] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %buf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %t = tilegpu.async_copy %d[%n, %c0], %buf : !tile.desc<64x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %g = tilegpu.async_commit_group(%t)
  tilegpu.async_wait %g {pending = 0 : i32}
  return
}

// -----

// 16 rows x 128 bytes = 128 chunks over 96 threads: a second, guarded round.
// CHECK-LABEL: func.func @ragged_rounds
// CHECK: nvvm.cp.async.shared.global
// CHECK: scf.if
// CHECK: llvm.udiv
// CHECK: nvvm.cp.async.shared.global
func.func @ragged_rounds(%p: !tile.ptr<bf16>, %rows: i32) attributes {nvvm.reqntid = array<i32: 96>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %s1 = arith.constant 1 : i64
  %s64 = arith.constant 64 : i64
  %c1 = arith.constant 1 : i32
  %d = tile.make_desc %p, [%c1, %rows, %c64], [%s64, %s64, %s1] : !tile.ptr<bf16> -> !tile.desc<1x16x64xbf16>
  %buf = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
  %t = tilegpu.async_copy %d[%c0, %c0, %c0], %buf : !tile.desc<1x16x64xbf16>, !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
  return
}

// -----

func.func @no_thread_count(%p: !tile.ptr<bf16>) {
  %c0 = arith.constant 0 : i32
  %s1 = arith.constant 1 : i64
  %d = tile.make_desc %p, [%c0, %c0], [%s1, %s1] : !tile.ptr<bf16> -> !tile.desc<16x64xbf16>
  %buf = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
  // expected-error @+2 {{'tilegpu.async_copy' op expected the kernel's thread count (nvvm.reqntid) or a warp role around the copy}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.async_copy'}}
  %t = tilegpu.async_copy %d[%c0, %c0], %buf : !tile.desc<16x64xbf16>, !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
  return
}
