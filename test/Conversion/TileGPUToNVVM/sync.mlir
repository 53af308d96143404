// Barriers, fences, mbarriers and warp roles lower to their NVVM ops.
// RUN: tilec-opt %s --convert-tilegpu-to-nvvm | FileCheck %s

// CHECK: llvm.mlir.global external @tilec_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>

// CHECK-LABEL: func.func @barriers
func.func @barriers(%id: i32) {
  // CHECK: nvvm.barrier0
  tilegpu.barrier
  // CHECK: %[[T:.+]] = llvm.mlir.constant(256 : i32)
  // CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %[[T]]
  tilegpu.barrier_sync %id, 256
  // CHECK: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
  tilegpu.barrier_arrive %id, 384
  // CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
  tilegpu.fence async_proxy
  // CHECK: nvvm.fence.mbarrier.init
  tilegpu.fence mbarrier_init
  return
}

// CHECK-LABEL: func.func @mbarriers
func.func @mbarriers(%i: i32, %phase: i32) {
  // Thread 0 initializes both barriers (8 bytes apart) at offset 64, then
  // fences and a block barrier publish them.
  // CHECK: %[[SMEM:.+]] = llvm.mlir.addressof @tilec_smem
  // CHECK: %[[BASE:.+]] = llvm.getelementptr %[[SMEM]][%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  // CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[LEADER:.+]] = llvm.icmp "eq" %[[TID]]
  // CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}}, predicate = %[[LEADER]]
  // CHECK: nvvm.mbarrier.init %{{.*}}, %{{.*}}, predicate = %[[LEADER]]
  // CHECK-NOT: nvvm.mbarrier.init
  // CHECK: nvvm.fence.mbarrier.init
  // CHECK: nvvm.fence.proxy
  // CHECK: nvvm.barrier0
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 64 : i64} : !tilegpu.mbarrier<2>
  // CHECK: %[[BYTES:.+]] = llvm.mlir.constant(8192 : i32)
  // CHECK: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %[[BYTES]]
  tilegpu.mbarrier_arrive %full[%i] expect_tx 8192 : !tilegpu.mbarrier<2>
  // CHECK: nvvm.mbarrier.arrive %{{.*}}
  tilegpu.mbarrier_arrive %full[%i] : !tilegpu.mbarrier<2>
  // CHECK: %[[PARITY:.+]] = llvm.and %{{.*}}, %{{.*}} : i32
  // CHECK: nvvm.mbarrier.try_wait.parity %{{.*}}, %[[PARITY]], %{{.*}}
  tilegpu.mbarrier_wait %full[%i], %phase : !tilegpu.mbarrier<2>
  return
}

// CHECK-LABEL: func.func @consecutive_mbarriers
func.func @consecutive_mbarriers() {
  // Creates in a row (buffers between them aside) publish their inits once,
  // after the last.
  // CHECK: nvvm.mbarrier.init
  // CHECK-NOT: nvvm.barrier0
  // CHECK: nvvm.mbarrier.init
  // CHECK-NOT: nvvm.barrier0
  // CHECK: nvvm.mbarrier.init
  // CHECK: nvvm.fence.mbarrier.init
  // CHECK-NEXT: nvvm.fence.proxy
  // CHECK-NEXT: nvvm.barrier0
  // CHECK-NOT: nvvm.barrier0
  // CHECK: return
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 0 : i64} : !tilegpu.mbarrier<1>
  %ring = tilegpu.alloc {offset = 1024 : i64} : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  %empty = tilegpu.mbarrier_create {arrivals = 128 : i32, offset = 8 : i64} : !tilegpu.mbarrier<1>
  %other = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = 16 : i64} : !tilegpu.mbarrier<1>
  return
}

// CHECK-LABEL: func.func @roles
// CHECK-SAME: nvvm.minctasm = 1 : i32
func.func @roles(%id: i32) {
  // 12 warps share 65536 registers: 168 each; the producer goes down to 40,
  // the consumers up to 232.
  // CHECK: %[[WARP:.+]] = llvm.lshr
  // CHECK: llvm.icmp "uge" %[[WARP]]
  // CHECK: llvm.icmp "ult" %[[WARP]]
  // CHECK: scf.if
  // CHECK-NEXT: nvvm.setmaxregister decrease 40
  // CHECK: nvvm.barrier.arrive
  // The kernel ends with the roles: the first role's threads exit (ptxas
  // sees no path from its code into the next role's), the last role's
  // return.
  // CHECK-NEXT: nvvm.exit
  // CHECK-NEXT: }
  // CHECK: scf.if
  // CHECK-NEXT: nvvm.setmaxregister increase 232
  // CHECK: nvvm.barrier id
  // CHECK-NOT: nvvm.exit
  // CHECK: return
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      tilegpu.barrier_arrive %id, 384
    }
    role warps = 8 registers = 232 {
      tilegpu.barrier_sync %id, 384
    }
  return
}

// Code after the roles: every thread must reach it, none exits.
// CHECK-LABEL: func.func @roles_then_more
// CHECK-NOT: nvvm.exit
// CHECK: nvvm.barrier0
func.func @roles_then_more(%id: i32) {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      tilegpu.barrier_arrive %id, 384
    }
    role warps = 8 registers = 232 {
      tilegpu.barrier_sync %id, 384
    }
  tilegpu.barrier
  return
}

// The warp index, role-relative, read from lane 0 (warp-uniform for ptxas).
// CHECK-LABEL: func.func @warp_id
// CHECK: nvvm.setmaxregister increase 232
// CHECK-NEXT: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[REL:.+]] = llvm.sub %[[TID]], %{{.+}}
// CHECK: %[[WARP:.+]] = llvm.lshr %[[REL]], %{{.+}}
// CHECK: %[[UNIFORM:.+]] = nvvm.shfl.sync idx %{{.+}}, %[[WARP]], %{{.+}}, %{{.+}}
// CHECK: arith.cmpi eq, %[[UNIFORM]]
func.func @warp_id(%id: i32) {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      tilegpu.barrier_arrive %id, 384
    }
    role warps = 8 registers = 232 {
      %w = tilegpu.warp_id : i32
      %c0 = arith.constant 0 : i32
      %first = arith.cmpi eq, %w, %c0 : i32
      scf.if %first {
        tilegpu.barrier_sync %id, 384
      }
    }
  return
}
