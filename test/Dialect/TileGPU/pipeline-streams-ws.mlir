// tilegpu-pipeline-streams with tma and warp-specialize: a producer
// warpgroup fills the rings of both loops (which stream the same K and V
// blocks, so they share one set of rings and barriers, the second loop's
// iterations numbered on from the first's); the kernel's warps only wait
// for full slots and free them.
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true" 2>/dev/null | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true" --tilegpu-sink-dot-waits --tilegpu-insert-barriers | FileCheck %s --check-prefix=BARRIERS
// tile-slots=2: a persistent kernel's Q on two slots.
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true tile-slots=2" 2>/dev/null | FileCheck %s --check-prefix=SLOTS2
// RUN: not tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true tile-slots=3" 2>&1 >/dev/null | FileCheck %s --check-prefix=SLOTS3
// SLOTS3: tile-slots must be 1 or 2, got 3
// The output prints, parses and re-enters the passes that follow:
// RUN: tilec-opt %s -split-input-file --tilegpu-pipeline-streams="stages=3 tma=true warp-specialize=true" 2>/dev/null | tilec-opt -split-input-file --tilegpu-lower-conversions --tilegpu-sink-dot-waits --tilegpu-insert-barriers --tilegpu-allocate-shared-memory -o /dev/null

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// CHECK-LABEL: func.func @kv_loop
// CHECK-SAME: %[[KMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>, %[[VMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>)
// CHECK-SAME: nvvm.reqntid = array<i32: 256, 1, 1>
// One set of rings and barriers, before the roles: full (one arrival: the
// producer's announcement), empty (one per consumer thread).
// CHECK: %[[RK:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[RV:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<3>
// CHECK: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<3>
// CHECK-NOT: tilegpu.alloc : !tilegpu.smem<3x
// CHECK-NOT: mbarrier_create
// CHECK: tilegpu.warp_specialize
// CHECK-NEXT: role warps = 4 registers = 24 {
// The producer: warp 0, each iteration waits for its slot to be free
// (round + 1: the first round passes at once), announces 2 x 8 KiB, copies.
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: scf.if
// CHECK: scf.for %[[J:[^ ]*]] =
// CHECK: %[[SLOT:.*]] = arith.remui
// CHECK: %[[ROUND:.*]] = arith.divui
// CHECK: %[[NEXT:.*]] = arith.addi %[[ROUND]], %c1
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]][%[[SLOT]]], %[[NEXT]]
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%[[SLOT]]] expect_tx 16384
// CHECK: tilegpu.tma_load %[[KMAP]][%{{.*}}, %[[J]], %{{.*}}], %{{.*}}, %[[FULL]][%[[SLOT]]]
// CHECK: tilegpu.tma_load %[[VMAP]][%{{.*}}, %[[J]], %{{.*}}], %{{.*}}, %[[FULL]][%[[SLOT]]]
// The second loop numbers its iterations on from the first's trip count.
// CHECK: %[[SPAN:.*]] = arith.maxsi
// CHECK: %[[TRIPS:.*]] = arith.divui
// CHECK: %[[BASE:.*]] = arith.addi %{{.*}}, %[[TRIPS]]
// CHECK: scf.for
// CHECK: arith.addi %[[BASE]]
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]]
// CHECK: tilegpu.tma_load %[[KMAP]]
// CHECK: tilegpu.tma_load %[[VMAP]]
// The consumers: the kernel's body, waiting on full, freeing on empty; the
// second loop's base (the first's trip count) is computed before the first.
// CHECK: role warps = 4 registers = 240 {
// CHECK: arith.maxsi
// CHECK: arith.divui
// CHECK: %[[CBASE:.*]] = arith.addi
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK-NOT: tma_load
// CHECK: tilegpu.slot %[[RK]]
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]][%{{.*}}] :
// CHECK-NEXT: scf.yield
// CHECK: scf.for
// CHECK: arith.addi %[[CBASE]]
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]]
// CHECK: return
// The waits that end the slot's reads stay before the arrival, and the
// consumers' loops need no barrier: nothing in them writes shared memory.
// BARRIERS-LABEL: func.func @kv_loop
// BARRIERS: role warps = 4 registers = 240 {
// BARRIERS: scf.for
// BARRIERS-NOT: tilegpu.barrier
// BARRIERS-NOT: barrier_sync
// BARRIERS: tilegpu.dot_wait %{{.*}} {pending = 0 : i32}
// BARRIERS-NEXT: tilegpu.mbarrier_arrive
// BARRIERS-NEXT: scf.yield
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @kv_loop(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pv: !tile.ptr<bf16>, %vb: i32, %vn: i32, %vd: i32, %vbs: i64, %vns: i64, %vds: i64, %q: tensor<64x128xbf16, #a>, %p: tensor<64x32xbf16, #a>, %bh: i32, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
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
  %vbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
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
  %r2 = scf.for %i = %n to %kn step %c32 iter_args(%acc = %r) -> (tensor<64x128xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf2, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %vbuf2, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  return
}
}


// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#b = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
// Not warp-specialized (one role, cp.async): a stream read into registers
// cannot take TMA (and a function returning a value could not move into a
// role).
// WARN: warning: not warp-specialized: a streamed block has no TMA box (it fills no swizzled wgmma buffer and is not one row of whole 128-byte slots)
// WARN-NOT: warning
// CHECK-LABEL: func.func @registers
// CHECK-NOT: warp_specialize
// CHECK: tilegpu.async_copy
func.func @registers(%pa: !tile.ptr<bf16>, %a: tensor<64x32xbf16, #a>, %k: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %sk = arith.constant 4096 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %da = tile.make_desc %pa, [%k, %k], [%sk, %s1] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %r = scf.for %i = %c0 to %k step %c32 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %x = tile.load_block %da[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b>
    %m = tilegpu.mma %a, %x, %acc : tensor<64x32xbf16, #a>, tensor<32x64xbf16, #b> -> tensor<64x64xf32, #acc>
    scf.yield %m : tensor<64x64xf32, #acc>
  }
  return
}

// -----

// 16 consumer warps: 512 x 240 + 128 x 24 registers do not fit an SM.
// WARN: warning: not warp-specialized: the register budgets (128 x producer + consumers x consumer registers) exceed the 65536 registers of an SM
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [16, 1]>
#acc = #tilegpu.mma<warps = [16, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [16, 1], order = [1, 0]>
func.func @too_many_warps(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %q: tensor<256x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 512, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<256x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %i = %c0 to %kn step %c64 : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<256x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<256x64xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<256x64xf32, #acc>>
  }
  return
}

// -----

// A loop bound loaded from an argument the kernel never writes (a packed
// sequence's length): the producer loads it again (the same value).
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @loaded_bound
// CHECK: tilegpu.warp_specialize
// CHECK-NEXT: role warps = 4 registers = 24 {
// CHECK: %[[PN:.*]] = tile.load_scalar %arg5 : <i32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[PN]]
// CHECK: tilegpu.tma_load
// CHECK: role warps = 4 registers = 240 {
// CHECK: %[[CN:.*]] = tile.load_scalar %arg5 : <i32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CN]]
func.func @loaded_bound(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %lens: !tile.ptr<i32>, %q: tensor<64x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %s1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %n = tile.load_scalar %lens : !tile.ptr<i32>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
  }
  return
}

// -----

// The same, but the kernel also writes through that argument: the producer
// could read another value than the consumers did, so no roles.
// WARN: warning: not warp-specialized: a loop bound is not computed from kernel arguments by ops without memory effects (or loads of arguments the kernel does not write)
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @written_bound
// CHECK-NOT: warp_specialize
func.func @written_bound(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %lens: !tile.ptr<i32>, %q: tensor<64x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %s1 = arith.constant 1 : i64
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %n = tile.load_scalar %lens : !tile.ptr<i32>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
  }
  %ps = tile.splat %lens : tensor<128x!tile.ptr<i32>, #v>
  %ones = arith.constant dense<1> : tensor<128xi32, #v>
  tile.store %ps, %ones : tensor<128x!tile.ptr<i32>, #v>
  return
}

// -----

// A persistent kernel (tile-persistent-grid): the streamed loop sits in the
// loop over the logical programs, its coordinates divided out of the tile
// index. Both roles run that loop, carrying the ring's iteration count from
// one tile to the next (slots and phases run on across tiles); the
// producer computes the tile's coordinates itself.
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @persistent
// CHECK: tilegpu.warp_specialize
// CHECK-NEXT: role warps = 4 registers = 24 {
// CHECK: %[[PT:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PB:.*]] = %c0{{.*}}) -> (i32)
// CHECK: %[[ROW:.*]] = arith.remsi %[[T]], %arg6
// CHECK: scf.for %[[J:[^ ]*]] =
// CHECK: arith.addi %[[PB]]
// CHECK: tilegpu.mbarrier_wait
// CHECK: tilegpu.tma_load %{{.*}}[%[[ROW]], %[[J]]]
// CHECK: %[[PNEXT:.*]] = arith.addi %[[PB]], %{{.*}}
// CHECK: scf.yield %[[PNEXT]] : i32
// CHECK: role warps = 4 registers = 240 {
// CHECK: %[[CT:.*]]:2 = scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %[[CB:.*]] = %c0{{.*}}) -> (tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>, i32)
// CHECK: %[[TRIPS:.*]] = arith.divui
// CHECK: %[[CNEXT:.*]] = arith.addi %[[CB]], %[[TRIPS]]
// CHECK: scf.for
// CHECK: arith.addi %[[CB]]
// CHECK: tilegpu.mbarrier_wait
// CHECK: tilegpu.mbarrier_arrive
// CHECK: scf.yield %{{.*}}, %[[CNEXT]] : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>, i32
// WARN-NOT: warning
func.func @persistent(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %q: tensor<64x64xbf16, #a>, %gx: i32, %total: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %first = tile.program_id 0
  %step = tile.num_programs 0
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %out = scf.for %t = %first to %total step %step iter_args(%o = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %row = arith.remsi %t, %gx : i32
    %r = scf.for %i = %c0 to %kn step %c64 iter_args(%acc = %o) -> (tensor<64x64xf32, #acc>) : i32 {
      %k = tile.load_block %dk[%row, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
      tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
      %tk = tilegpu.warpgroup_dot %q, %kbuf, %acc transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
      %s = tilegpu.dot_wait %tk {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
      scf.yield %s : tensor<64x64xf32, #acc>
    }
    scf.yield %r : tensor<64x64xf32, #acc>
  }
  return
}

// -----

// A block the persistent loop loads once per tile into a swizzled buffer
// (Q, read by the inner loop's wgmma; its coordinate divides the tile index
// by a grid argument): the producer loads it by TMA on its own one-slot
// ring and barriers, after the consumers freed the previous tile's (right
// after the last op that reads it, the inner loop), and before that tile's
// K blocks; the consumers wait for it before its first reader.
#swz = #tilegpu.swizzled<128>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @persistent_q
// CHECK: %[[QRING:.*]] = tilegpu.alloc : !tilegpu.smem<1x64x64xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[QFULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
// CHECK: %[[QEMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<1>
// CHECK: role warps = 4 registers = 24 {
// CHECK: scf.for %[[T:.*]] = %{{.*}} iter_args
// CHECK: tilegpu.mbarrier_wait %[[QEMPTY]]
// CHECK: tilegpu.mbarrier_arrive %[[QFULL]][%{{.*}}] expect_tx 8192
// CHECK: %[[ROW:.*]] = arith.divsi %[[T]], %arg10
// CHECK: tilegpu.tma_load %{{.*}}[%[[ROW]], %{{.*}}], %{{.*}}, %[[QFULL]]
// CHECK: scf.for
// CHECK: tilegpu.tma_load
// CHECK: role warps = 4 registers = 240 {
// CHECK-NOT: tile.load_block
// CHECK: %[[QSLOT:.*]] = tilegpu.slot %[[QRING]]
// CHECK: tilegpu.mbarrier_wait %[[QFULL]]
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warpgroup_dot %[[QSLOT]], %{{.*}}
// CHECK: tilegpu.mbarrier_arrive %[[QEMPTY]]
// CHECK-NEXT: scf.yield
// With tile-slots=2 the Q ring has two slots: the tile with program-loop
// iteration i (its index minus the program id, over the program count)
// takes slot i % 2 in round i / 2, so the producer loads the next tile's Q
// into the other slot while the consumers read this one's (the K ring
// keeps its stages).
// SLOTS2-LABEL: func.func @persistent_q
// SLOTS2: tilegpu.alloc : !tilegpu.smem<3x64x64xbf16, #tilegpu.swizzled<128>>
// SLOTS2: %[[QRING:.*]] = tilegpu.alloc : !tilegpu.smem<2x64x64xbf16, #tilegpu.swizzled<128>>
// SLOTS2-NEXT: %[[QFULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
// SLOTS2-NEXT: %[[QEMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<2>
// SLOTS2: role warps = 4 registers = 24 {
// SLOTS2: %[[FIRST:.*]] = tile.program_id 0
// SLOTS2-NEXT: %[[STEP:.*]] = tile.num_programs 0
// SLOTS2-NEXT: scf.for %[[T:[^ ]*]] = %[[FIRST]] to %{{.*}} step %[[STEP]]
// SLOTS2: %[[DONE:.*]] = arith.subi %[[T]], %[[FIRST]]
// SLOTS2-NEXT: %[[I:.*]] = arith.divui %[[DONE]], %[[STEP]]
// SLOTS2-NEXT: %[[TWO:.*]] = arith.constant 2 : i32
// SLOTS2-NEXT: %[[SLOT:.*]] = arith.remui %[[I]], %[[TWO]]
// SLOTS2-NEXT: %[[ROUND:.*]] = arith.divui %[[I]], %[[TWO]]
// SLOTS2: %[[FREE:.*]] = arith.addi %[[ROUND]], %{{.*}}
// SLOTS2-NEXT: tilegpu.mbarrier_wait %[[QEMPTY]][%[[SLOT]]], %[[FREE]] : !tilegpu.mbarrier<2>
// SLOTS2: tilegpu.mbarrier_arrive %[[QFULL]][%[[SLOT]]] expect_tx 8192
// SLOTS2: %[[DST:.*]] = tilegpu.slot %[[QRING]][%[[SLOT]]]
// SLOTS2-NEXT: tilegpu.tma_load %{{.*}}, %[[DST]], %[[QFULL]][%[[SLOT]]]
// SLOTS2: role warps = 4 registers = 240 {
// SLOTS2: scf.for %[[CT:[^ ]*]] = %[[CFIRST:[^ ]*]] to
// SLOTS2: %[[CDONE:.*]] = arith.subi %[[CT]], %[[CFIRST]]
// SLOTS2-NEXT: %[[CI:.*]] = arith.divui %[[CDONE]]
// SLOTS2-NEXT: %[[CTWO:.*]] = arith.constant 2 : i32
// SLOTS2-NEXT: %[[CSLOT:.*]] = arith.remui %[[CI]], %[[CTWO]]
// SLOTS2-NEXT: %[[CROUND:.*]] = arith.divui %[[CI]], %[[CTWO]]
// SLOTS2: %[[QSLOT:.*]] = tilegpu.slot %[[QRING]][%[[CSLOT]]]
// SLOTS2: tilegpu.mbarrier_wait %[[QFULL]][%[[CSLOT]]], %[[CROUND]]
// SLOTS2-NEXT: scf.for
// SLOTS2: tilegpu.warpgroup_dot %[[QSLOT]], %{{.*}}
// SLOTS2: tilegpu.mbarrier_arrive %[[QEMPTY]][%[[CSLOT]]]
// SLOTS2-NEXT: scf.yield
func.func @persistent_q(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %pq: !tile.ptr<bf16>, %qn: i32, %qd: i32, %qns: i64, %qds: i64, %gx: i32, %total: i32, %a: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %first = tile.program_id 0
  %step = tile.num_programs 0
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %qbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %dq = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %t = %first to %total step %step : i32 {
    %row = arith.divsi %t, %gx : i32
    %q = tile.load_block %dq[%row, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %q, %qbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %r = scf.for %i = %c0 to %kn step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
      tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
      %tk = tilegpu.warpgroup_dot %qbuf, %kbuf, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
      %s = tilegpu.dot_wait %tk {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
      scf.yield %s : tensor<64x64xf32, #acc>
    }
  }
  return
}

// -----

// The same with a tile coordinate made by pure ops (a product): the tile
// loop would be an ordinary streamed loop too, but it is left to the warp
// specialization (its Q on a one-slot ring), never streamed twice.
#swz = #tilegpu.swizzled<128>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @persistent_pure_q
// CHECK: %[[QRING:.*]] = tilegpu.alloc : !tilegpu.smem<1x64x64xbf16, #tilegpu.swizzled<128>>
// CHECK-NOT: tilegpu.alloc : !tilegpu.smem<3x64x64xbf16, #tilegpu.swizzled<128>>
// CHECK: role warps = 4 registers = 24 {
// CHECK: tilegpu.tma_load %{{.*}}, %[[QFULLP:[^\[]*]][
// CHECK: role warps = 4 registers = 240 {
// CHECK: tilegpu.slot %[[QRING]]
// CHECK-NOT: async_copy
// WARN-NOT: warning
func.func @persistent_pure_q(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %pq: !tile.ptr<bf16>, %qn: i32, %qd: i32, %qns: i64, %qds: i64, %total: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %first = tile.program_id 0
  %step = tile.num_programs 0
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %qbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %dq = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  scf.for %t = %first to %total step %step : i32 {
    %row = arith.muli %t, %c64 : i32
    %q = tile.load_block %dq[%row, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %q, %qbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %r = scf.for %i = %c0 to %kn step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
      %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
      tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
      %tk = tilegpu.warpgroup_dot %qbuf, %kbuf, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
      %s = tilegpu.dot_wait %tk {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
      scf.yield %s : tensor<64x64xf32, #acc>
    }
  }
  return
}

// -----

// The backward's dK/dV loop: its bounds come from a scan over the query
// blocks (a loop without memory effects, run again in the producer), and
// it streams a per-row statistic (one row of 32 f32, read into registers)
// beside a wgmma operand: the statistic's ring is padded<0> and filled by a
// TMA box without swizzle (tensor map swizzle 0) on the same barriers.
#swz = #tilegpu.swizzled<128>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#r2 = #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [1, 4], order = [1, 0]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
// CHECK-LABEL: func.func @scanned_bound_stats
// CHECK-SAME: !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>, %[[SMAP:[^:]*]]: !tilegpu.tensor_map<1x32xf32, #tilegpu.padded<0>>)
// CHECK-SAME: {box = array<i64: 1, 32>, swizzle = 0 : i64, tensor = 5 : i64}
// CHECK: %[[RS:.*]] = tilegpu.alloc : !tilegpu.smem<3x32xf32, #tilegpu.padded<0>>
// CHECK: tilegpu.warp_specialize
// CHECK-NEXT: role warps = 4 registers = 24 {
// CHECK: %[[PHI:.*]] = scf.for {{.*}} iter_args
// CHECK: arith.addi
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[PHI]]
// CHECK: tilegpu.mbarrier_arrive %{{.*}} expect_tx 4224
// CHECK: tilegpu.tma_load
// CHECK: tilegpu.tma_load %[[SMAP]][%{{.*}}, %{{.*}}], %{{.*}} : !tilegpu.tensor_map<1x32xf32, #tilegpu.padded<0>>, !tilegpu.smem<32xf32, #tilegpu.padded<0>>
// CHECK: role warps = 4 registers = 240 {
// CHECK: %[[CHI:.*]] = scf.for {{.*}} iter_args
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[CHI]]
// CHECK: tilegpu.slot %[[RS]]
// CHECK: tilegpu.local_load %{{.*}} : !tilegpu.smem<32xf32, #tilegpu.padded<0>> -> tensor<32xf32
func.func @scanned_bound_stats(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %ps: !tile.ptr<f32>, %sb: i32, %sn: i32, %sbs: i64, %sns: i64, %blocks: i32, %bh: i32, %q: tensor<64x64xbf16, #a>) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %vzero = arith.constant dense<0.0> : tensor<32xf32, #v>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<32x64xbf16>
  %ds = tile.make_desc %ps, [%sb, %sn], [%sbs, %sns] : !tile.ptr<f32> -> !tile.desc<1x32xf32>
  %hi = scf.for %j = %c0 to %blocks step %c1 iter_args(%h = %c0) -> (i32) : i32 {
    %h2 = arith.addi %h, %c32 : i32
    scf.yield %h2 : i32
  }
  %r = scf.for %i = %c0 to %hi step %c32 iter_args(%sum = %vzero) -> (tensor<32xf32, #v>) : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<32x64xbf16, #b2>, !tilegpu.smem<32x64xbf16, #swz>
    %st = tile.load_block %ds[%bh, %i] : !tile.desc<1x32xf32> -> tensor<1x32xf32, #r2>
    %st1 = tile.reshape %st : tensor<1x32xf32, #r2> -> tensor<32xf32, #v>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x64xbf16, #a>, !tilegpu.smem<32x64xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %n = arith.addf %sum, %st1 : tensor<32xf32, #v>
    scf.yield %n : tensor<32xf32, #v>
  }
  return
}

// -----

// Not persistent: a block the program loads once before its loops (Q, into
// the swizzled buffer the loop's wgmma reads) is the producer's too, by TMA
// on its own one-slot ring (never refilled: no "empty" barrier), before the
// K blocks; no loop is left around either role's code (the program's one
// tile runs once). A block read after the loops (the last V) stays the
// consumers' load.
#swz = #tilegpu.swizzled<128>
#acc = #tilegpu.mma<warps = [4, 1]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// CHECK-LABEL: func.func @once_q
// CHECK: %[[QRING:.*]] = tilegpu.alloc : !tilegpu.smem<1x64x64xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: %[[QFULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
// CHECK-NEXT: tilegpu.warp_specialize
// CHECK: role warps = 4 registers = 24 {
// CHECK: scf.if
// CHECK-NOT: scf.for
// CHECK-NOT: tilegpu.mbarrier_wait
// CHECK: %[[ROW:.*]] = tile.program_id 0
// CHECK: tilegpu.mbarrier_arrive %[[QFULL]][%{{.*}}] expect_tx 8192
// CHECK: tilegpu.tma_load %{{.*}}[%[[ROW]], %{{.*}}], %{{.*}}, %[[QFULL]]
// CHECK: scf.for
// CHECK: tilegpu.tma_load
// CHECK: role warps = 4 registers = 240 {
// CHECK: %[[QSLOT:.*]] = tilegpu.slot %[[QRING]]
// CHECK: tilegpu.mbarrier_wait %[[QFULL]]
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warpgroup_dot %[[QSLOT]], %{{.*}}
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tile.load_block
// CHECK-NOT: tilegpu.mbarrier_arrive
// CHECK: return
// WARN-NOT: warning
func.func @once_q(%pk: !tile.ptr<bf16>, %kn: i32, %kd: i32, %kns: i64, %kds: i64, %pq: !tile.ptr<bf16>, %qn: i32, %qd: i32, %qns: i64, %qds: i64) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %qbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %lbuf = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
  %dk = tile.make_desc %pk, [%kn, %kd], [%kns, %kds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %dq = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<bf16> -> !tile.desc<64x64xbf16>
  %row = tile.program_id 0
  %q = tile.load_block %dq[%row, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
  tilegpu.local_store %q, %qbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
  %r = scf.for %i = %c0 to %kn step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
    tilegpu.local_store %k, %kbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
    %tk = tilegpu.warpgroup_dot %qbuf, %kbuf, %acc transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %tk {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
    scf.yield %s : tensor<64x64xf32, #acc>
  }
  %last = tile.load_block %dk[%kn, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #b2>
  tilegpu.local_store %last, %lbuf : tensor<64x64xbf16, #b2>, !tilegpu.smem<64x64xbf16, #swz>
  %tl = tilegpu.warpgroup_dot %qbuf, %lbuf, %r transpose_b : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #acc>
  %sl = tilegpu.dot_wait %tl {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #acc>>
  return
}

// -----

// A loop that streams only the first of the next loop's blocks (the
// overlapped forward's first step on its own: K, no V) shares that loop's
// rings: one set, sized by the wider loop; the first loop's iterations
// announce and copy K alone, its consumers read K's ring.
#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// CHECK-LABEL: func.func @first_step_alone
// CHECK-SAME: %[[KMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>, %[[VMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>)
// CHECK: %[[RK:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[RV:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<3>
// CHECK: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<3>
// CHECK-NOT: tilegpu.alloc : !tilegpu.smem<3x
// CHECK-NOT: mbarrier_create
// CHECK: role warps = 4 registers = 24 {
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]]
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx 8192
// CHECK: tilegpu.slot %[[RK]]
// CHECK-NEXT: tilegpu.tma_load %[[KMAP]]
// CHECK-NEXT: }
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]]
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx 16384
// CHECK: tilegpu.tma_load %[[KMAP]]
// CHECK: tilegpu.slot %[[RV]]
// CHECK-NEXT: tilegpu.tma_load %[[VMAP]]
// CHECK: role warps = 4 registers = 240 {
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK: tilegpu.slot %[[RK]]
// CHECK-NOT: tilegpu.slot
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]]
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK-DAG: tilegpu.slot %[[RK]]
// CHECK-DAG: tilegpu.slot %[[RV]]
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]]
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @first_step_alone(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pv: !tile.ptr<bf16>, %vb: i32, %vn: i32, %vd: i32, %vbs: i64, %vns: i64, %vds: i64, %q: tensor<64x128xbf16, #a>, %p: tensor<64x32xbf16, #a>, %bh: i32, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %ozero = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %kbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %vbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %dk = tile.make_desc %pk, [%kb, %kn, %kd], [%kbs, %kns, %kds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %dv = tile.make_desc %pv, [%vb, %vn, %vd], [%vbs, %vns, %vds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %first = arith.minsi %c32, %n : i32
  %s0 = scf.for %i = %c0 to %first step %c32 iter_args(%prev = %zero) -> (tensor<64x32xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    scf.yield %s : tensor<64x32xf32, #acc>
  }
  %r = scf.for %i = %first to %n step %c32 iter_args(%acc = %ozero) -> (tensor<64x128xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf2, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %vbuf2, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  return
}
}

// -----

// A loop that streams only the last of the loop before's blocks (the
// overlapped forward's last P·V in a loop of one step: V, no K) shares
// that loop's rings too: its iterations, numbered on, announce and copy V
// alone, and its consumers read V's ring.
#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// CHECK-LABEL: func.func @last_step_alone
// CHECK-SAME: %[[KMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>, %[[VMAP:[^:]*]]: !tilegpu.tensor_map<1x32x64xbf16, #tilegpu.swizzled<128>>)
// CHECK: %[[RK:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[RV:.*]] = tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<3>
// CHECK: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 128 : i32} : !tilegpu.mbarrier<3>
// CHECK-NOT: tilegpu.alloc : !tilegpu.smem<3x
// CHECK-NOT: mbarrier_create
// CHECK: role warps = 4 registers = 24 {
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx 16384
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]]
// CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx 8192
// CHECK: tilegpu.slot %[[RV]]
// CHECK-NEXT: tilegpu.tma_load %[[VMAP]]
// CHECK-NEXT: }
// CHECK: role warps = 4 registers = 240 {
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]]
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait %[[FULL]]
// CHECK: tilegpu.slot %[[RV]]
// CHECK-NOT: tilegpu.slot
// CHECK: tilegpu.mbarrier_arrive %[[EMPTY]]
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @last_step_alone(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pv: !tile.ptr<bf16>, %vb: i32, %vn: i32, %vd: i32, %vbs: i64, %vns: i64, %vds: i64, %q: tensor<64x128xbf16, #a>, %p: tensor<64x32xbf16, #a>, %bh: i32, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %ozero = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %vbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %vbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
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
  %last = arith.addi %n, %c32 : i32
  %o = scf.for %i = %n to %last step %c32 iter_args(%acc = %r) -> (tensor<64x128xf32, #acc>) : i32 {
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %u = tilegpu.warpgroup_dot %p, %vbuf2, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  return
}
}

// -----

// A loop that streams V, then K is no subsequence of one that streams K,
// then V: each gets its own rings and barriers.
#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// CHECK-LABEL: func.func @not_in_order
// CHECK: tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.mbarrier_create {arrivals = 1 : i32}
// CHECK-NEXT: tilegpu.mbarrier_create {arrivals = 128 : i32}
// CHECK-NEXT: tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.alloc : !tilegpu.smem<3x32x128xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.mbarrier_create {arrivals = 1 : i32}
// CHECK-NEXT: tilegpu.mbarrier_create {arrivals = 128 : i32}
// CHECK-NEXT: tilegpu.warp_specialize
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @not_in_order(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pv: !tile.ptr<bf16>, %vb: i32, %vn: i32, %vd: i32, %vbs: i64, %vns: i64, %vds: i64, %q: tensor<64x128xbf16, #a>, %p: tensor<64x32xbf16, #a>, %bh: i32, %n: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %ozero = arith.constant dense<0.0> : tensor<64x128xf32, #acc>
  %vbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %kbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %vbuf2 = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %dk = tile.make_desc %pk, [%kb, %kn, %kd], [%kbs, %kns, %kds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %dv = tile.make_desc %pv, [%vb, %vn, %vd], [%vbs, %vns, %vds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %first = arith.minsi %c32, %n : i32
  %o0 = scf.for %i = %c0 to %first step %c32 iter_args(%acc = %ozero) -> (tensor<64x128xf32, #acc>) : i32 {
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %vbuf, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  %r = scf.for %i = %first to %n step %c32 iter_args(%acc = %o0) -> (tensor<64x128xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %v = tile.load_block %dv[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %v2 = tile.reshape %v : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %v2, %vbuf2 : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf2, %zero transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    %u = tilegpu.warpgroup_dot %p, %vbuf2, %acc : tensor<64x32xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x128xf32, #acc>
    %e = tilegpu.dot_wait %u {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #acc>>
    scf.yield %e : tensor<64x128xf32, #acc>
  }
  return
}
}

// -----

// A loop under a branch (the fused backward's last program converting
// dq_acc) is not streamed: the producer does not take the branch, so the
// loop stays the consumers' own, with its plain block loads, and the
// kernel's streamed loop is still warp-specialized (it was refused: "a
// streamed loop is nested in another op").
#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>
#b2 = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#swz = #tilegpu.swizzled<128>
// CHECK-LABEL: func.func @loop_under_a_branch
// CHECK: tilegpu.warp_specialize
// CHECK: role warps = 4 registers = 240 {
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK: scf.if
// CHECK-NEXT: scf.for
// CHECK-NEXT: tile.load_block %{{.*}} : !tile.desc<1x32x128xf32>
// CHECK-NEXT: tile.reshape
// WARN-NOT: warning
module attributes {tilec.target = {pipeline_stages = 2 : i64}} {
func.func @loop_under_a_branch(%pk: !tile.ptr<bf16>, %kb: i32, %kn: i32, %kd: i32, %kbs: i64, %kns: i64, %kds: i64, %pa: !tile.ptr<f32>, %ab: i32, %an: i32, %ad: i32, %abs: i64, %ans: i64, %ads: i64, %po: !tile.ptr<f32>, %q: tensor<64x128xbf16, #a>, %bh: i32, %n: i32, %last: i1) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32, #acc>
  %fzero = arith.constant dense<0.0> : tensor<1x32x128xf32, #bl>
  %kbuf = tilegpu.alloc : !tilegpu.smem<32x128xbf16, #swz>
  %dk = tile.make_desc %pk, [%kb, %kn, %kd], [%kbs, %kns, %kds] : !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
  %da = tile.make_desc %pa, [%ab, %an, %ad], [%abs, %ans, %ads] : !tile.ptr<f32> -> !tile.desc<1x32x128xf32>
  %do = tile.make_desc %po, [%ab, %an, %ad], [%abs, %ans, %ads] : !tile.ptr<f32> -> !tile.desc<1x32x128xf32>
  %r = scf.for %i = %c0 to %n step %c32 iter_args(%acc = %zero) -> (tensor<64x32xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%bh, %i, %c0] : !tile.desc<1x32x128xbf16> -> tensor<1x32x128xbf16, #bl>
    %k2 = tile.reshape %k : tensor<1x32x128xbf16, #bl> -> tensor<32x128xbf16, #b2>
    tilegpu.local_store %k2, %kbuf : tensor<32x128xbf16, #b2>, !tilegpu.smem<32x128xbf16, #swz>
    %t = tilegpu.warpgroup_dot %q, %kbuf, %acc transpose_b : tensor<64x128xbf16, #a>, !tilegpu.smem<32x128xbf16, #swz>, tensor<64x32xf32, #acc>
    %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x32xf32, #acc>>
    scf.yield %s : tensor<64x32xf32, #acc>
  }
  scf.if %last {
    scf.for %i = %c0 to %an step %c32 : i32 {
      %blk = tile.load_block %da[%bh, %i, %c0] : !tile.desc<1x32x128xf32> -> tensor<1x32x128xf32, #bl>
      %rows = tile.reshape %blk : tensor<1x32x128xf32, #bl> -> tensor<32x128xf32, #b2>
      %back = tile.reshape %rows : tensor<32x128xf32, #b2> -> tensor<1x32x128xf32, #bl>
      tile.store_block %do[%bh, %i, %c0], %back : !tile.desc<1x32x128xf32>, tensor<1x32x128xf32, #bl>
      tile.store_block %da[%bh, %i, %c0], %fzero : !tile.desc<1x32x128xf32>, tensor<1x32x128xf32, #bl>
    }
  }
  return
}
}
