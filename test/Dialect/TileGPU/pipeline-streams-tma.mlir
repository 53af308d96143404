// tilegpu-pipeline-streams with tma: rings of swizzled wgmma buffers are
// filled by TMA onto per-slot "full" mbarriers, the tensor maps being new
// trailing kernel arguments listed in tilec.tensor_maps.
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true" | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams | FileCheck %s --check-prefix=TARGET
// RUN: sed -e 's/reqntid = array<i32: 256>/reqntid = array<i32: 128>/' %s | tilec-opt -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true" | FileCheck %s --check-prefix=ONEWG
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=false" | FileCheck %s --check-prefix=CPASYNC
// The output prints, parses and re-enters the passes that follow:
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true" 2>/dev/null | tilec-opt -split-input-file --tilegpu-lower-conversions --tilegpu-sink-dot-waits --tilegpu-insert-barriers --tilegpu-allocate-shared-memory -o /dev/null

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// K and V of attention: 3-d blocks (a unit head dimension) 128 elements
// wide, each a wgmma B buffer; one map per tensor with a 1x32x64 box (one
// 128-byte column block), both read by one loop. K is read twice (two
// loops) and gets one map.
// CHECK-LABEL: func.func @kv_loop
// CHECK-SAME: %[[KMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>, %[[VMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>)
// CHECK-SAME: tilec.tensor_maps = [{box = array<i64: 1, 32, 64>, swizzle = 128 : i64, tensor = 0 : i64}, {box = array<i64: 1, 32, 64>, swizzle = 128 : i64, tensor = 7 : i64}]
// With two warpgroups the slots are released on "empty" mbarriers (an
// arrival from each of the kernel's 256 threads), not by a block barrier
// (tilegpu-insert-barriers leaves rings marked tilegpu.released_by_mbarrier
// alone); one warpgroup keeps the barrier (ONEWG).
// CHECK-DAG: %[[RK:.*]] = tilegpu.alloc {tilegpu.released_by_mbarrier} : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK-DAG: %[[RV:.*]] = tilegpu.alloc {tilegpu.released_by_mbarrier} : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<3>
// CHECK: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<3>
// Prologue: iterations 0 and 1, each guarded by the bound, thread 0
// announcing both tiles' bytes (2 x 32 x 128 x 2), warp 0 copying.
// CHECK: scf.if
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NEXT: %[[WARP:.*]] = tilegpu.warp_id
// CHECK-DAG: %[[W0:.*]] = arith.cmpi eq, %[[WARP]], %c0
// CHECK-DAG: %[[T0:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: scf.if %[[W0]]
// CHECK-NEXT: scf.if %[[T0]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[FULL]][%c0{{.*}}] expect_tx 16384
// CHECK: tilegpu.tma_load %[[KMAP]][%{{.*}}, %{{.*}}, %c0{{.*}}], %{{.*}}, %[[FULL]][%c0
// CHECK: tilegpu.tma_load %[[VMAP]]
// CHECK-NOT: tilegpu.mbarrier_wait %[[EMPTY]]
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%c1{{.*}}] expect_tx 16384
// CHECK-NOT: async_commit_group
// In the body: wait for this slot's phase (iteration / 3), issue two ahead
// into the slot once the previous round's readers are done (the empty
// barrier's phase of the parity of (iteration + 2) / 3 + 1), read, and
// arrive on the slot's empty barrier.
// CHECK: scf.for %[[IV:[^ ]*]] =
// CHECK: %[[I:.*]] = arith.divui
// CHECK: %[[CUR:.*]] = arith.remui %[[I]], %c3
// CHECK: %[[PHASE:.*]] = arith.divui %[[I]], %c3
// CHECK: %[[AHEADI:.*]] = arith.addi %[[I]], %c2
// CHECK: %[[AHEAD:.*]] = arith.remui %[[AHEADI]], %c3
// CHECK: tilegpu.mbarrier_wait %[[FULL]][%[[CUR]]], %[[PHASE]] : !tilegpu.mbarrier<3>
// CHECK: %[[ROUND:.*]] = arith.divui %[[AHEADI]], %c3
// CHECK: %[[FREED:.*]] = arith.addi %[[ROUND]], %c1
// CHECK: scf.if
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%[[AHEAD]]] expect_tx
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]][%[[AHEAD]]], %[[FREED]]
// CHECK: tilegpu.tma_load %[[KMAP]]
// CHECK: tilegpu.tma_load %[[VMAP]]
// CHECK: tilegpu.slot %[[RK]][%[[CUR]]]
// CHECK-NOT: local_store
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]][%[[CUR]]] :
// CHECK-NEXT: scf.yield
// No wait after the loop: nothing is left in flight.
// CHECK-NEXT: }
// CHECK-NOT: async_wait
// The second loop reads K again through the same map, with its own barriers.
// CHECK: tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<3>
// CHECK: tilegpu.tma_load %[[KMAP]]
// CHECK: return
// ONEWG-LABEL: func.func @kv_loop
// ONEWG: tilegpu.alloc : !tilegpu.smem<3x32x128xbf16
// ONEWG: tilegpu.mbarrier_create {arrivals = 1 : i32}
// ONEWG-NOT: arrivals = 128
// ONEWG: return
// Without tma in tilec.target: cp.async.
// TARGET-LABEL: func.func @kv_loop
// TARGET-NOT: tensor_map
// TARGET: tilegpu.async_copy
// CPASYNC-LABEL: func.func @kv_loop
// CPASYNC-NOT: tensor_map
// CPASYNC-NOT: mbarrier
// CPASYNC: tilegpu.async_copy
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @kv_loop(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pv: !tile.ptr<bf16>, %vb: i32, %vn: i32, %vd: i32, %vbs: i64, %vns: i64, %vds: i64, %q: tensor<64x128xbf16, #a>, %p: tensor<64x32xbf16, #a>, %bh: i32, %n: i32) -> tensor<64x128xf32, #acc> attributes {nvvm.reqntid = array<i32: 256>, tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c128 = arith.constant 128 : i32
  %s1 = arith.constant 1 : i64
  %sn = arith.constant 128 : i64
  %sh = arith.constant 65536 : i64
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %ozero = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %vbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %kbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %dk = tile.make_desc %pk, [%kb, %kn, %kd], [%kbs, %kns, %kds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %dv = tile.make_desc %pv, [%vb, %vn, %vd], [%vbs, %vns, %vds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %r = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %ozero) -> (tensor<64x128xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %vbuf, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  %r2 = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %r) -> (tensor<64x128xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf2, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %kbuf2, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  return %r2 : tensor<64x128xf32, #acc>
}
}

// -----

#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// A stream read into registers (no swizzled buffer) keeps its loop on
// cp.async, with the TMA-able stream beside it.
// CHECK-LABEL: func.func @mixed_loop
// CHECK-NOT: tensor_map
// CHECK-NOT: mbarrier
// CHECK-COUNT-2: tilegpu.async_copy
func.func @mixed_loop(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %a: tensor<64x32xbf16, #a>, %k: i32) -> tensor<64x64xf32, #acc> attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %sk = arith.constant 4096 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %buf = tilegpu.alloc : !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>
  %da = tile.make_desc %pa, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %db = tile.make_desc %pb, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %x = tile.load_block %da[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %y = tile.load_block %db[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b2>
    tilegpu.local_store %y, %buf : tensor<32x64xbf16, #b2>, !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>
    %t = tilegpu.warpgroup_dot %a, %buf, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #acc>
    %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
    %m = tilegpu.mma %a, %x, %d : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b> -> tensor<64x64xf32, #acc>
    scf.yield %m : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}

// -----

// A paged cache: block i's row is a page from a table (a one-value load)
// plus its slot. The table is never written, so the coordinates of the
// block stages - 1 iterations ahead are computed there, the table loaded
// again for it; a kernel that writes the table gets no ring.
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @paged
// The prologue's copies: the table read for iterations 0 and 1.
// CHECK: tile.load_scalar
// CHECK: tilegpu.tma_load
// CHECK: tile.load_scalar
// CHECK: tilegpu.tma_load
// CHECK: scf.for %[[I:[^ ]*]] =
// The copy two iterations ahead reads its own table entry.
// CHECK: %[[AHEAD:.*]] = arith.addi %[[I]]
// CHECK: arith.divsi %[[AHEAD]]
// CHECK: tile.load_scalar
// CHECK: tilegpu.tma_load
// CPASYNC-LABEL: func.func @paged
// CPASYNC: tilegpu.async_copy
// CPASYNC-LABEL: func.func @written_table
// CPASYNC-NOT: tilegpu.async_copy
// CPASYNC: tile.load_block
func.func @paged(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %table: !tile.ptr<i32>, %n: i32, %q: tensor<64x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %slot = arith.divsi %i, %c256 : i32
    %entry = tile.addptr %table, %slot : !tile.ptr<i32>, i32
    %page = tile.load_scalar %entry : !tile.ptr<i32>
    %first = arith.muli %page, %c256 : i32
    %within = arith.remsi %i, %c256 : i32
    %row = arith.addi %first, %within : i32
    %k = tile.load_block %dk[%row, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
  }
  return
}

// -----

#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
func.func @written_table(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %table: !tile.ptr<i32>, %n: i32, %q: tensor<64x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c256 = arith.constant 256 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %slot = arith.divsi %i, %c256 : i32
    %entry = tile.addptr %table, %slot : !tile.ptr<i32>, i32
    %page = tile.load_scalar %entry : !tile.ptr<i32>
    %first = arith.muli %page, %c256 : i32
    %within = arith.remsi %i, %c256 : i32
    %row = arith.addi %first, %within : i32
    %k = tile.load_block %dk[%row, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
  }
  %ps = tile.splat %table : tensor<128x!tile.ptr<i32>, #v>
  %ones = arith.constant dense<1> : tensor<128xi32, #v>
  tile.store %ps, %ones : tensor<128x!tile.ptr<i32>, #v>
  return
}
