// Block loads and stores through registers: each thread its own elements,
// at base + coordinates x strides, only inside the tensor's shape (a load
// reads the padding value elsewhere); registers that hold consecutive
// elements of a row move together as one predicated vector access. Grid
// queries, and kernels (tilegpu.kernel) as the llvm.func with nvvm.kernel
// they launch as.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s

#b = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// 512 elements over 128 threads, one in four per thread: four registers,
// four guarded loads; the guard compares each coordinate (offset + the
// register's) to the size, unsigned (a negative coordinate is outside too).
// CHECK-LABEL: llvm.func @copy
// CHECK-SAME: nvvm.kernel
// CHECK-SAME: nvvm.reqntid = array<i32: 128, 1, 1>
// CHECK-SAME: tilec.aligned_args = array<i64: 0>
// CHECK: nvvm.read.ptx.sreg.ctaid.x
// CHECK: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32)
// CHECK: %[[IN:.*]] = llvm.icmp "ult"
// CHECK: scf.if %[[IN]]
// CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[NAN]]
// CHECK-COUNT-3: llvm.load
// CHECK-COUNT-4: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<1>
// CHECK-NOT: ld.global
// CHECK: llvm.return
func.func @copy(%src: !tile.ptr<f32>, %dst: !tile.ptr<f32>, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, tilec.aligned_args = array<i64: 0>} {
  %s1 = arith.constant 1 : i64
  %c512 = arith.constant 512 : i32
  %pid = tile.program_id 0
  %at = arith.muli %pid, %c512 : i32
  %ds = tile.make_desc %src, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %x = tile.load_block %ds[%at] padding = nan : !tile.desc<512xf32> -> tensor<512xf32, #b>
  tile.store_block %dd[%at], %x : !tile.desc<512xf32>, tensor<512xf32, #b>
  return
}

// -----

#b = #tilegpu.blocked<size_per_thread = [4], threads = [32], warps = [4], order = [0]>
// Four consecutive f32 per thread in a module that assumes aligned tensors:
// one predicated 16-byte load and store each (the padding in every word
// where the first element is outside), no branch; both arguments join
// tilec.aligned_args (checked at launch), and an offset that is not a
// multiple of four traps.
// CHECK-LABEL: llvm.func @copy_aligned
// CHECK-SAME: tilec.aligned_args = array<i64: 0, 1>
// CHECK: %[[NAN:.*]] = llvm.mlir.constant(0x7FC00000 : f32)
// CHECK: llvm.urem %{{.*}}, %{{.*}} : i32
// CHECK: llvm.intr.trap
// CHECK: %[[FILL:.*]] = llvm.bitcast %[[NAN]] : f32 to i32
// CHECK: %[[IN:.*]] = llvm.icmp "ult"
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $6;{{.*}}@$5 ld.global.v4.b32 {$0, $1, $2, $3}, [$4];", "=r,=r,=r,=r,l,b,r" %{{.*}}, %[[IN]], %[[FILL]]
// CHECK-NOT: -> (f32
// CHECK: llvm.intr.trap
// CHECK: llvm.inline_asm has_side_effects "@$1 st.global.v4.b32 [$0], {$2, $3, $4, $5};", "l,b,r,r,r,r"
// CHECK-NOT: llvm.store
// CHECK: llvm.return
module attributes {tilec.target = {assume_aligned = true}} {
func.func @copy_aligned(%src: !tile.ptr<f32>, %dst: !tile.ptr<f32>, %n: i32, %at: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %ds = tile.make_desc %src, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %x = tile.load_block %ds[%at] padding = nan : !tile.desc<512xf32> -> tensor<512xf32, #b>
  tile.store_block %dd[%at], %x : !tile.desc<512xf32>, tensor<512xf32, #b>
  return
}
}

// -----

#b = #tilegpu.blocked<size_per_thread = [1, 2], threads = [8, 4], warps = [4, 1], order = [1, 0]>
// Without the aligned assumption the kernel checks at run time that the
// tensor allows vectors (last stride 1; base, other strides, last size and
// offset multiples of the width) and branches, uniformly, to one 4-byte
// load of two bf16 per register pair, or to the element-by-element path.
// CHECK-LABEL: llvm.func @pairs_checked
// CHECK-NOT: tilec.aligned_args
// CHECK: %[[STRIDE:.*]] = llvm.icmp "eq" %{{.*}}, %{{.*}} : i64
// CHECK: llvm.ptrtoint
// CHECK: %[[OK:.*]] = llvm.and
// CHECK: scf.if %{{.*}} -> (bf16, bf16)
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $3;{{.*}}@$2 ld.global.b32 $0, [$1];", "=r,l,b,r"
// CHECK: llvm.bitcast %{{.*}} : i32 to vector<2xbf16>
// CHECK: } else {
// CHECK-COUNT-2: llvm.load %{{.*}} : !llvm.ptr<1> -> bf16
// CHECK: scf.if
// CHECK: "@$1 st.global.b32 [$0], $2;", "l,b,r"
// CHECK: } else {
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : bf16, !llvm.ptr<1>
func.func @pairs_checked(%src: !tile.ptr<bf16>, %dst: !tile.ptr<bf16>, %n: i32, %d: i32, %stride: i64) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %ds = tile.make_desc %src, [%n, %d], [%stride, %s1] : !tile.ptr<bf16> -> !tile.desc<32x8xbf16>
  %dd = tile.make_desc %dst, [%n, %d], [%stride, %s1] : !tile.ptr<bf16> -> !tile.desc<32x8xbf16>
  %x = tile.load_block %ds[%c0, %c0] : !tile.desc<32x8xbf16> -> tensor<32x8xbf16, #b>
  tile.store_block %dd[%c0, %c0], %x : !tile.desc<32x8xbf16>, tensor<32x8xbf16, #b>
  return
}

// -----

#b = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// Where a block store takes its thread index from. By default the
// kernel's %tid.x, which LLVM may merge and hoist: inside a loop
// (@in_loop) and after the loops (@after_loop). In a loop around loops
// (@around_loops, a persistent grid's tile loop) its own read, inline PTX
// with side effects that LLVM neither merges nor moves ahead of the inner
// loops, so the addresses are not held in registers through them.
// CHECK-LABEL: llvm.func @in_loop
// CHECK: scf.for
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.store
// CHECK-NOT: %tid.x;
// CHECK: llvm.return
func.func @in_loop(%dst: !tile.ptr<f32>, %n: i32, %x: tensor<512xf32, #b>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c512 = arith.constant 512 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  scf.for %at = %c0 to %n step %c512 : i32 {
    tile.store_block %dd[%at], %x : !tile.desc<512xf32>, tensor<512xf32, #b>
  }
  return
}
// CHECK-LABEL: llvm.func @after_loop
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.store
// CHECK-NOT: %tid.x;
// CHECK: llvm.return
func.func @after_loop(%dst: !tile.ptr<f32>, %n: i32, %x: tensor<512xf32, #b>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #b>) : i32 {
    %twice = arith.addf %acc, %acc : tensor<512xf32, #b>
    scf.yield %twice : tensor<512xf32, #b>
  }
  tile.store_block %dd[%c0], %sum : !tile.desc<512xf32>, tensor<512xf32, #b>
  return
}
// CHECK-LABEL: llvm.func @around_loops
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r"
// CHECK: llvm.store
// CHECK: llvm.return
func.func @around_loops(%dst: !tile.ptr<f32>, %n: i32, %x: tensor<512xf32, #b>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c512 = arith.constant 512 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  scf.for %at = %c0 to %n step %c512 : i32 {
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #b>) : i32 {
      %twice = arith.addf %acc, %acc : tensor<512xf32, #b>
      scf.yield %twice : tensor<512xf32, #b>
    }
    tile.store_block %dd[%at], %sum : !tile.desc<512xf32>, tensor<512xf32, #b>
  }
  return
}

// -----

#b = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// In a kernel whose consumer warpgroups run side by side beside a producer
// warpgroup (warp_specialize without ping_pong: dK/dV) the store after the
// loops reads its own %tid.x too.
// CHECK-LABEL: llvm.func @after_loop_specialized
// CHECK: scf.for
// CHECK: scf.yield
// CHECK: llvm.inline_asm has_side_effects "mov.u32 $0, %tid.x;", "=r"
// CHECK: llvm.store
// CHECK: llvm.return
module attributes {tilec.target = {warp_specialize = true, ping_pong = false}} {
func.func @after_loop_specialized(%dst: !tile.ptr<f32>, %n: i32, %x: tensor<512xf32, #b>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<512xf32>
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #b>) : i32 {
    %twice = arith.addf %acc, %acc : tensor<512xf32, #b>
    scf.yield %twice : tensor<512xf32, #b>
  }
  tile.store_block %dd[%c0], %sum : !tile.desc<512xf32>, tensor<512xf32, #b>
  return
}
}

// -----

// A tensor-map argument is a 128-byte CUtensorMap passed by value, 64-byte
// aligned and read in place (__grid_constant__); tilec.tensor_maps stays
// for the launch metadata.
// CHECK-LABEL: llvm.func @with_map
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>, %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: tilec.tensor_maps = [{box = array<i64: 64, 64>, swizzle = 128 : i64, tensor = 0 : i64}]
func.func @with_map(%k: !tile.ptr<bf16>, %map: !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>, tilec.tensor_maps = [{box = array<i64: 64, 64>, swizzle = 128 : i64, tensor = 0 : i64}]} {
  return
}

// -----

#m = #tilegpu.mma<warps = [4, 1]>
// A 2-D block: the address adds each coordinate times its i64 stride.
// CHECK-LABEL: func.func @strided
// CHECK-COUNT-8: llvm.sext
// CHECK: llvm.mul %{{.*}} : i64
func.func @strided(%d: !tile.desc<64x8xf32>, %r: i32, %c: i32) -> tensor<64x8xf32, #m> {
  %x = tile.load_block %d[%r, %c] : !tile.desc<64x8xf32> -> tensor<64x8xf32, #m>
  return %x : tensor<64x8xf32, #m>
}

// -----

// CHECK-LABEL: func.func @grid
// CHECK: nvvm.read.ptx.sreg.ctaid.y
// CHECK: nvvm.read.ptx.sreg.nctaid.z
func.func @grid() -> (i32, i32) {
  %y = tile.program_id 1
  %z = tile.num_programs 2
  return %y, %z : i32, i32
}

// -----

// expected-error @+2 {{'func.func' op is a kernel (tilegpu.kernel) and may not return values}}
// expected-error @+1 {{failed to legalize operation 'func.func'}}
func.func @returns(%x: i32) -> i32 attributes {tilegpu.kernel} {
  return %x : i32
}

// -----

// One value per program (tile.load_scalar): a plain load, or one under its
// mask with the fill value (zero without one) elsewhere.
// CHECK-LABEL: llvm.func @offsets
// CHECK: %[[A:.*]] = llvm.load %arg0 : !llvm.ptr<1> -> i32
// CHECK: %[[B:.*]] = scf.if %arg2 -> (i32) {
// CHECK-NEXT: llvm.load %arg0 : !llvm.ptr<1> -> i32
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg1 : i32
// CHECK: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: %[[C:.*]] = scf.if %arg2 -> (i32) {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[Z]] : i32
// CHECK: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK: arith.addi %[[S]], %[[C]] : i32
func.func @offsets(%p: !tile.ptr<i32>, %fill: i32, %keep: i1) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %a = tile.load_scalar %p : !tile.ptr<i32>
  %b = tile.load_scalar %p mask %keep other %fill : !tile.ptr<i32>
  %c = tile.load_scalar %p mask %keep : !tile.ptr<i32>
  %s1 = arith.addi %a, %b : i32
  %s2 = arith.addi %s1, %c : i32
  %q = tile.addptr %p, %s2 : !tile.ptr<i32>, i32
  %v = tile.load_scalar %q : !tile.ptr<i32>
  return
}

// -----

// Gathers (tile.load of a tile of pointers): from an argument the kernel
// never writes, one predicated ld.global.nc per register without a side
// effect (no branch; LLVM may hoist or merge it); from one it also stores
// through, a guarded load in program order.
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [1], order = [0]>
// CHECK-LABEL: llvm.func @gathers
// CHECK: llvm.inline_asm "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1];", "=r,l,b,r"
// CHECK-NOT: llvm.inline_asm "{{.*}}ld.global.nc
// CHECK: llvm.load %{{.*}} : !llvm.ptr<1> -> f32
// CHECK: llvm.store
func.func @gathers(%in: !tile.ptr<i32>, %io: !tile.ptr<f32>, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
  %i = tile.iota : tensor<32xi32, #v>
  %lim = tile.splat %n : tensor<32xi32, #v>
  %keep = arith.cmpi slt, %i, %lim : tensor<32xi32, #v>
  %ip = tile.splat %in : tensor<32x!tile.ptr<i32>, #v>
  %ips = tile.addptr %ip, %i : tensor<32x!tile.ptr<i32>, #v>, tensor<32xi32, #v>
  %ids = tile.load %ips mask %keep : tensor<32x!tile.ptr<i32>, #v>
  %fp = tile.splat %io : tensor<32x!tile.ptr<f32>, #v>
  %fps = tile.addptr %fp, %ids : tensor<32x!tile.ptr<f32>, #v>, tensor<32xi32, #v>
  %x = tile.load %fps mask %keep : tensor<32x!tile.ptr<f32>, #v>
  tile.store %fps, %x mask %keep : tensor<32x!tile.ptr<f32>, #v>
  return
}

// -----

// Atomic adds: each element once. 128 f32 in two registers of 64 threads:
// warps 2 and 3 hold copies of warps 0 and 1's elements (a zero warp
// basis), so only threads whose warp bit 1 is clear add (tid & 64 == 0),
// each register guarded by the bounds too; one predicated
// red.global.add.f32 per element.
// CHECK-LABEL: llvm.func @atomic_add
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[BITS:.*]] = llvm.and %[[TID]], %{{.*}} : i32
// CHECK: %[[CLEAR:.*]] = llvm.icmp "eq" %[[BITS]]
// CHECK: %[[OWNER:.*]] = llvm.and %{{.*}}, %[[CLEAR]] : i1
// CHECK: %[[IN:.*]] = llvm.icmp "ult"
// CHECK: %[[GUARD:.*]] = llvm.and %[[IN]], %[[OWNER]]
// CHECK: llvm.inline_asm has_side_effects "@$2 red.global.add.f32 [$0], $1;", "l,f,b" %{{.*}}, %{{.*}}, %[[GUARD]]
// CHECK-COUNT-1: red.global.add.f32
// CHECK-NOT: red.global
// CHECK: llvm.return
#lin = #tilegpu.linear<reg = [[64]], lane = [[1], [2], [4], [8], [16]], warp = [[32], [0]]>
func.func @atomic_add(%dst: !tile.ptr<f32>, %n: i32, %v: tensor<128xf32, #lin>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<128xf32>
  tile.atomic_add_block %dd[%c0], %v : !tile.desc<128xf32>, tensor<128xf32, #lin>
  return
}

// -----

// A layout whose copies differ in a nonzero lane basis (lanes 0 and 1 hold
// the same element through another basis) cannot pick one copy per
// element: an error, not double additions.
#dup = #tilegpu.linear<reg = [], lane = [[1], [1], [2], [4], [8]], warp = [[16], [32]]>
func.func @atomic_add_repeated(%dst: !tile.ptr<f32>, %n: i32, %v: tensor<64xf32, #dup>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %s1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i32
  %dd = tile.make_desc %dst, [%n], [%s1] : !tile.ptr<f32> -> !tile.desc<64xf32>
  // expected-error @+2 {{cannot add atomically from a layout whose copies of an element do not differ in zero lane or warp bits}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic_add_block'}}
  tile.atomic_add_block %dd[%c0], %v : !tile.desc<64xf32>, tensor<64xf32, #dup>
  return
}
