// tilegpu-ping-pong: the warpgroups of a role take turns issuing each
// iteration's opening dots, on named barriers after the roles' own.
// RUN: tilec-opt %s -split-input-file --tilegpu-ping-pong 2>/dev/null | FileCheck %s
// A second run finds the turns in place and adds nothing.
// RUN: tilec-opt %s -split-input-file --tilegpu-ping-pong --tilegpu-ping-pong 2>/dev/null | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilegpu-ping-pong 2>&1 >/dev/null | FileCheck %s --check-prefix=WARN

#acc = #tilegpu.wgmma<warpgroups = 2>
#a = #tilegpu.wgmma_operand<warpgroups = 2>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<128x64xf32, #acc>>
// Two consumer warpgroups (8 warps) in role 1 of 2: barriers 3 and 4.
// Warpgroup 1 lets warpgroup 0 go first; the turn holds both row groups'
// S dots (issued before any wait) but not the P·V dot after the waits;
// warpgroup 0 takes the last turn's arrival at the end of the role.
// CHECK-LABEL: func.func @two_warpgroups
// CHECK: role warps = 8 registers = 232 {
// CHECK-NEXT: %[[WG:.+]] = tilegpu.warpgroup_id : i32
// CHECK-NEXT: %[[C3:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[MINE:.+]] = arith.addi %[[WG]], %[[C3]]
// CHECK-NEXT: %[[C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[LAST:.+]] = arith.cmpi eq, %[[WG]], %[[C1]]
// CHECK-NEXT: %[[BASE:.+]] = arith.constant 3 : i32
// CHECK-NEXT: %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[AFTER:.+]] = arith.addi %[[MINE]], %[[ONE]]
// CHECK-NEXT: %[[NEXT:.+]] = arith.select %[[LAST]], %[[BASE]], %[[AFTER]]
// CHECK-NEXT: %[[G1:.+]] = arith.constant 1 : i32
// CHECK-NEXT: %[[IS1:.+]] = arith.cmpi eq, %[[WG]], %[[G1]]
// CHECK-NEXT: scf.if %[[IS1]] {
// CHECK-NEXT: %[[B0:.+]] = arith.constant 3 : i32
// CHECK-NEXT: tilegpu.barrier_arrive %[[B0]], 256
// CHECK: scf.for
// CHECK: tilegpu.mbarrier_wait
// CHECK-NEXT: tilegpu.barrier_sync %[[MINE]], 256
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.barrier_arrive %[[NEXT]], 256
// CHECK-NEXT: tilegpu.dot_wait
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.warpgroup_dot
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.mbarrier_arrive
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.yield
// CHECK: %[[C0:.+]] = arith.constant 0 : i32
// CHECK-NEXT: %[[FIRST:.+]] = arith.cmpi eq, %[[WG]], %[[C0]]
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: %[[B1:.+]] = arith.constant 3 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[B1]], 256
// CHECK-NOT: tilegpu.warpgroup_id
func.func @two_warpgroups(%q0: tensor<128x64xbf16, #a>, %q1: tensor<128x64xbf16, #a>,
                          %k: !buf, %z: tensor<128x64xf32, #acc>, %n: index) {
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %i0 = arith.constant 0 : i32
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %o = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<128x64xf32, #acc>) {
        tilegpu.mbarrier_wait %full[%i0], %i0 : !tilegpu.mbarrier<2>
        %t0 = tilegpu.warpgroup_dot %q0, %k, %z transpose_b : tensor<128x64xbf16, #a>, !buf, tensor<128x64xf32, #acc>
        %t1 = tilegpu.warpgroup_dot %q1, %k, %z transpose_b : tensor<128x64xbf16, #a>, !buf, tensor<128x64xf32, #acc>
        %s0 = tilegpu.dot_wait %t0 {pending = 1 : i32} : !tok
        %s1 = tilegpu.dot_wait %t1 {pending = 0 : i32} : !tok
        %p = arith.truncf %s0 : tensor<128x64xf32, #acc> to tensor<128x64xbf16, #acc>
        %pa = tilegpu.convert_layout %p : tensor<128x64xbf16, #acc> -> tensor<128x64xbf16, #a>
        %t2 = tilegpu.warpgroup_dot %pa, %k, %acc : tensor<128x64xbf16, #a>, !buf, tensor<128x64xf32, #acc>
        %next = tilegpu.dot_wait %t2 {pending = 0 : i32} : !tok
        tilegpu.mbarrier_arrive %full[%i0] : !tilegpu.mbarrier<2>
        scf.yield %next : tensor<128x64xf32, #acc>
      }
    }
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// One consumer warpgroup has no one to take turns with.
// WARN: ping-pong.mlir:[[@LINE+6]]:3: warning: not ping-ponged: role 1 has one warpgroup
// CHECK-LABEL: func.func @one_warpgroup
// CHECK-NOT: tilegpu.barrier_sync
func.func @one_warpgroup(%q: tensor<64x64xbf16, #a>, %k: !buf, %z: tensor<64x64xf32, #acc>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 4 registers = 232 {
      scf.for %j = %c0 to %n step %c1 {
        %t = tilegpu.warpgroup_dot %q, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
        %s = tilegpu.dot_wait %t {pending = 0 : i32} : !tok
      }
    }
  return
}
