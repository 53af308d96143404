// RUN: tilec-opt %s --tile-to-llvm=num-warps=4 -split-input-file -verify-diagnostics | FileCheck %s

// A kernel becomes an llvm.func that runs one program per block of 128 threads;
// masked pointer accesses become predicated PTX loads and stores.
// CHECK: llvm.mlir.global external @tilec_smem() {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @copy(
// CHECK-SAME: %{{.+}}: !llvm.ptr<1>, %{{.+}}: !llvm.ptr<1>, %{{.+}}: i32)
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.reqntid = array<i32: 128, 1, 1>
// CHECK-SAME: tilec.shared_bytes = 0
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: llvm.getelementptr
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $3;{{.*}}@$2 ld.global.b32 $0, [$1];"
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$2 st.global.b32 [$0], $1;"
// CHECK-NOT: tile.
// CHECK: llvm.return
func.func @copy(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) {
  %c512 = arith.constant 512 : i32
  %pid = tile.program_id 0
  %start = arith.muli %pid, %c512 : i32
  %i = tile.iota : tensor<512xi32>
  %s = tile.splat %start : tensor<512xi32>
  %offs = arith.addi %s, %i : tensor<512xi32>
  %lim = tile.splat %n : tensor<512xi32>
  %mask = arith.cmpi slt, %offs, %lim : tensor<512xi32>
  %xp = tile.splat %x : tensor<512x!tile.ptr<f32>>
  %xs = tile.addptr %xp, %offs : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %yp = tile.splat %y : tensor<512x!tile.ptr<f32>>
  %ys = tile.addptr %yp, %offs : tensor<512x!tile.ptr<f32>>, tensor<512xi32>
  %v = tile.load %xs mask %mask : tensor<512x!tile.ptr<f32>>
  tile.store %ys, %v mask %mask : tensor<512x!tile.ptr<f32>>
  return
}

// -----

// i1 is a truth value: a count of kept elements sums 1s (uitofp, zext), not
// the -1s of a signed bit.
// CHECK-LABEL: llvm.func @truth_casts(
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.extui %{{.*}} : i1 to i32
// CHECK-NOT: arith.sitofp %{{.*}} : i1
// CHECK-NOT: arith.extsi %{{.*}} : i1
// CHECK: llvm.return
func.func @truth_casts(%x: !tile.ptr<f32>, %y: !tile.ptr<i32>, %n: i32) {
  %i = tile.iota : tensor<128xi32>
  %lim = tile.splat %n : tensor<128xi32>
  %keep = arith.cmpi slt, %i, %lim : tensor<128xi32>
  %f = tile.cast %keep : tensor<128xi1> to tensor<128xf32>
  %k = tile.cast %keep : tensor<128xi1> to tensor<128xi32>
  %xp = tile.splat %x : tensor<128x!tile.ptr<f32>>
  %xs = tile.addptr %xp, %i : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  tile.store %xs, %f : tensor<128x!tile.ptr<f32>>
  %yp = tile.splat %y : tensor<128x!tile.ptr<i32>>
  %ys = tile.addptr %yp, %i : tensor<128x!tile.ptr<i32>>, tensor<128xi32>
  tile.store %ys, %k : tensor<128x!tile.ptr<i32>>
  return
}

// -----

// tile.dot becomes mma.sync m16n8k16: 4 warps split a 32x16 result 2x2, so
// each warp issues one 16x8x16 mma. Both operands are shared by two warps, so
// neither loads straight into its operand layout: A moves through shared
// memory (32x16 bf16, 1024 bytes), B is staged once (16 rows of 16 + 8 padding
// elements) and read back one fragment at a time.
// CHECK-LABEL: llvm.func @mma(
// CHECK-SAME: tilec.shared_bytes = 1024
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// CHECK-NOT: mma.sync
func.func @mma(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %pc: !tile.ptr<f32>, %n: i32, %s: i64) {
  %c0 = arith.constant 0 : i32
  %a = tile.make_desc %pa, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<32x16xbf16>
  %b = tile.make_desc %pb, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<16x16xbf16>
  %c = tile.make_desc %pc, [%n, %n], [%s, %s] : !tile.ptr<f32> -> !tile.desc<32x16xf32>
  %ta = tile.load_block %a[%c0, %c0] : !tile.desc<32x16xbf16> -> tensor<32x16xbf16>
  %tb = tile.load_block %b[%c0, %c0] : !tile.desc<16x16xbf16> -> tensor<16x16xbf16>
  %zero = arith.constant dense<0.0> : tensor<32x16xf32>
  %d = tile.dot %ta, %tb, %zero : tensor<32x16xbf16>, tensor<16x16xbf16> -> tensor<32x16xf32>
  tile.store_block %c[%c0, %c0], %d : !tile.desc<32x16xf32>, tensor<32x16xf32>
  return
}

// -----

func.func @ragged_tile(%x: tensor<48xf32>) {
  // expected-error @+1 {{tile dimensions must be powers of two for the GPU lowering, got 'tensor<48xf32>'}}
  %y = arith.addf %x, %x : tensor<48xf32>
  return
}

// -----

func.func @small_dot(%a: tensor<8x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<8x8xf32>) {
  // expected-error @+1 {{tile.dot on the GPU needs M a multiple of 16, N of 8 and K of 16 (mma.sync m16n8k16), got 8x8x16}}
  %d = tile.dot %a, %b, %c : tensor<8x16xbf16>, tensor<16x8xbf16> -> tensor<8x8xf32>
  return
}

// -----

// expected-error @+1 {{the GPU lowering takes pointers and scalars as kernel arguments; argument 0 is '!tile.desc<16xf32>' (make descriptors inside the kernel with tile.make_desc)}}
func.func @descriptor_argument(%d: !tile.desc<16xf32>) {
  return
}
