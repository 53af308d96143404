// Tiles made, converted and reshaped in registers; pointer tiles advanced,
// gathered and scattered per register.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm | FileCheck %s

#v = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
// 256 elements over 128 threads, two each: iota is each register's
// coordinate (lane and warp bits, register bit 0), splat the scalar twice.
// CHECK-LABEL: func.func @made
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.xor %{{.*}}, %{{.*}} : i32
// CHECK-COUNT-2: llvm.insertvalue
// CHECK-COUNT-2: llvm.insertvalue %arg0
func.func @made(%x: i32) -> (tensor<256xi32, #v>, tensor<256xi32, #v>) {
  %i = tile.iota : tensor<256xi32, #v>
  %s = tile.splat %x : tensor<256xi32, #v>
  return %i, %s : tensor<256xi32, #v>, tensor<256xi32, #v>
}

// -----

#v = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
// f32 -> bf16 rounds, i32 -> f32 converts, per register; scalars too.
// CHECK-LABEL: func.func @casts
// CHECK-COUNT-2: llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK-COUNT-2: llvm.sitofp %{{.*}} : i32 to f32
// CHECK: llvm.fpext %arg2 : bf16 to f32
func.func @casts(%x: tensor<256xf32, #v>, %n: tensor<256xi32, #v>, %h: bf16) -> (tensor<256xbf16, #v>, tensor<256xf32, #v>, f32) {
  %b = tile.cast %x : tensor<256xf32, #v> to tensor<256xbf16, #v>
  %f = tile.cast %n : tensor<256xi32, #v> to tensor<256xf32, #v>
  %s = tile.cast %h : bf16 to f32
  return %b, %f, %s : tensor<256xbf16, #v>, tensor<256xf32, #v>, f32
}

// -----

#v = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
// i1 is a truth value: true casts to 1 and 1.0 (zero-extended, unsigned),
// not to the -1 of a signed bit; wider integers stay signed.
// CHECK-LABEL: func.func @truth_casts
// CHECK-COUNT-2: llvm.uitofp %{{.*}} : i1 to f32
// CHECK-COUNT-2: llvm.zext %{{.*}} : i1 to i32
// CHECK: llvm.zext %arg1 : i1 to i32
// CHECK: llvm.sext %arg2 : i8 to i32
func.func @truth_casts(%b: tensor<256xi1, #v>, %s: i1, %c: i8) -> (tensor<256xf32, #v>, tensor<256xi32, #v>, i32, i32) {
  %f = tile.cast %b : tensor<256xi1, #v> to tensor<256xf32, #v>
  %i = tile.cast %b : tensor<256xi1, #v> to tensor<256xi32, #v>
  %n = tile.cast %s : i1 to i32
  %w = tile.cast %c : i8 to i32
  return %f, %i, %n, %w : tensor<256xf32, #v>, tensor<256xi32, #v>, i32, i32
}

// -----

#m = #tilegpu.mma<warps = [4, 1]>
#m3 = #tilegpu.linear<reg = [[0, 0, 1], [0, 8, 0], [0, 0, 8]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [0, 32, 0]]>
#mt = #tilegpu.linear<reg = [[1, 0], [0, 8], [8, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32]]>
// Dropping a unit dimension and transposing keep every element where it
// is: the same registers, in the same order.
// CHECK-LABEL: func.func @renamed
// CHECK-NOT: llvm.extractvalue
// CHECK: return %arg0, %arg1
func.func @renamed(%x: tensor<1x64x16xf32, #m3>, %y: tensor<64x16xf32, #m>) -> (tensor<64x16xf32, #m>, tensor<16x64xf32, #mt>) {
  %r = tile.reshape %x : tensor<1x64x16xf32, #m3> -> tensor<64x16xf32, #m>
  %t = tile.trans %y order = [1, 0] : tensor<64x16xf32, #m> -> tensor<16x64xf32, #mt>
  return %r, %t : tensor<64x16xf32, #m>, tensor<16x64xf32, #mt>
}

// -----

#v = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
// A gather: each pointer advanced by its offset, loaded where the mask
// holds (else the `other` value), stored back where it holds.
// CHECK-LABEL: func.func @gather
// CHECK-COUNT-2: llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK: scf.if
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg3 : f32
// CHECK: scf.if
// CHECK: scf.if
// CHECK: llvm.store
func.func @gather(%p: tensor<256x!tile.ptr<f32>, #v>, %o: tensor<256xi32, #v>, %keep: tensor<256xi1, #v>, %other: f32) {
  %q = tile.addptr %p, %o : tensor<256x!tile.ptr<f32>, #v>, tensor<256xi32, #v>
  %x = tile.load %q mask %keep other %other : tensor<256x!tile.ptr<f32>, #v>
  tile.store %q, %x mask %keep : tensor<256x!tile.ptr<f32>, #v>
  return
}
