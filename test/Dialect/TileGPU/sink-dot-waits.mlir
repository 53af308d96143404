// tilegpu-sink-dot-waits: each dot_wait moves to just before the first
// reader of its accumulators; pending counts the wgmmas issued in between.
// RUN: tilec-opt %s -split-input-file --tilegpu-sink-dot-waits | FileCheck %s
// RUN: tilec-opt %s -split-input-file --tilegpu-sink-dot-waits=wait-before-next-dot \
// RUN:   | FileCheck %s --check-prefix=BEFORE
// RUN: tilec-opt %s -split-input-file --tilegpu-sink-dot-waits=keep-work-above-waits \
// RUN:   | FileCheck %s --check-prefix=KEEP

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// Two row groups' S = Q·Kᵀ: both issued before either is waited for; the
// first wait leaves the second dot in flight (pending 1) while its
// result is scaled, the second waits for everything.
// CHECK-LABEL: func.func @two_groups
// CHECK: %[[T0:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[T1:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[S0:.*]] = tilegpu.dot_wait %[[T0]] {pending = 1 : i32}
// CHECK-NEXT: arith.mulf %[[S0]]
// CHECK-NEXT: %[[S1:.*]] = tilegpu.dot_wait %[[T1]] {pending = 0 : i32}
// CHECK-NEXT: arith.mulf %[[S1]]
func.func @two_groups(%q0: tensor<64x64xbf16, #a>, %q1: tensor<64x64xbf16, #a>, %k: !buf, %z: tensor<64x64xf32, #acc>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %t0 = tilegpu.warpgroup_dot %q0, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s0 = tilegpu.dot_wait %t0 {pending = 0 : i32} : !tok
  %t1 = tilegpu.warpgroup_dot %q1, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s1 = tilegpu.dot_wait %t1 {pending = 0 : i32} : !tok
  %x0 = arith.mulf %s0, %s0 : tensor<64x64xf32, #acc>
  %x1 = arith.mulf %s1, %s1 : tensor<64x64xf32, #acc>
  return %x0, %x1 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// Not past a write of the dot's B buffer, and not past a region that
// issues a wgmma (pending 0 then: the count cannot see inside).
// CHECK-LABEL: func.func @stops
// CHECK: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.dot_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: tilegpu.local_store
// CHECK: scf.if
// CHECK: tilegpu.dot_wait %{{.*}} {pending = 0 : i32}
// CHECK-NEXT: return
func.func @stops(%q: tensor<64x64xbf16, #a>, %k: !buf, %z: tensor<64x64xf32, #acc>, %b: tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, %c: i1) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %t0 = tilegpu.warpgroup_dot %q, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s0 = tilegpu.dot_wait %t0 {pending = 0 : i32} : !tok
  tilegpu.local_store %b, %k : tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, !buf
  %other = tilegpu.alloc : !buf
  %t1 = tilegpu.warpgroup_dot %q, %other, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s1 = tilegpu.dot_wait %t1 {pending = 0 : i32} : !tok
  scf.if %c {
    %t2 = tilegpu.warpgroup_dot %q, %other, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  }
  return %s0, %s1 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// An arrival on the "empty" mbarrier hands the dot's B buffer back to the
// producer: the wait (which ends the dot's reads) stays before it, even
// when the arrival is nested in a branch.
// CHECK-LABEL: func.func @before_arrival
// CHECK: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.dot_wait
// CHECK-NEXT: scf.if
// CHECK-NEXT: tilegpu.mbarrier_arrive
func.func @before_arrival(%a: tensor<64x64xbf16, #a>, %b: !buf, %acc: tensor<64x64xf32, #acc>,
                          %empty: !tilegpu.mbarrier<2>, %i: i32, %c: i1) -> tensor<64x64xf32, #acc> {
  %t = tilegpu.warpgroup_dot %a, %b, %acc : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %d = tilegpu.dot_wait %t {pending = 0 : i32} : !tok
  scf.if %c {
    tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
  }
  %s = arith.addf %d, %d : tensor<64x64xf32, #acc>
  return %s : tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// S = Q·Kᵀ over two column tiles of the head dim: the wait between the
// parts goes and the second part chains onto the first's token (its wgmmas
// add onto the accumulators in flight); the one wait left, on the chain's
// token, sinks to the first reader past the P·V dot (pending 1).
// CHECK-LABEL: func.func @chained_parts
// CHECK: %[[T0:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} transpose_b : {{.*}}, tensor<64x64xf32, #{{.*}}>
// CHECK-NEXT: %[[T1:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[T0]] transpose_b : {{.*}}, !tilegpu.dot_token<
// CHECK-NEXT: %[[PV:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[S:.*]] = tilegpu.dot_wait %[[T1]] {pending = 1 : i32}
// CHECK-NEXT: arith.mulf %[[S]]
// CHECK-NOT: tilegpu.dot_wait %[[T0]]
// With wait-before-next-dot the chain still forms, but S's wait stays before
// P·V's issue (pending 0), and P·V's wait sinks to its reader.
// BEFORE-LABEL: func.func @chained_parts
// BEFORE: %[[T0:.*]] = tilegpu.warpgroup_dot
// BEFORE-NEXT: %[[T1:.*]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[T0]]
// BEFORE-NEXT: %[[S:.*]] = tilegpu.dot_wait %[[T1]] {pending = 0 : i32}
// BEFORE-NEXT: %[[PV:.*]] = tilegpu.warpgroup_dot
// BEFORE-NEXT: arith.mulf %[[S]]
// BEFORE-NEXT: tilegpu.dot_wait %[[PV]] {pending = 0 : i32}
// BEFORE-NEXT: return
func.func @chained_parts(%q0: tensor<64x64xbf16, #a>, %q1: tensor<64x64xbf16, #a>, %k0: !buf, %k1: !buf, %p: tensor<64x64xbf16, #a>, %v: !buf, %z: tensor<64x64xf32, #acc>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %t0 = tilegpu.warpgroup_dot %q0, %k0, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s0 = tilegpu.dot_wait %t0 {pending = 0 : i32} : !tok
  %t1 = tilegpu.warpgroup_dot %q1, %k1, %s0 transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s = tilegpu.dot_wait %t1 {pending = 0 : i32} : !tok
  %tv = tilegpu.warpgroup_dot %p, %v, %z : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %o = tilegpu.dot_wait %tv {pending = 0 : i32} : !tok
  %x = arith.mulf %s, %s : tensor<64x64xf32, #acc>
  return %x, %o : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// No chain where the first part's sum is read by anything else, where an
// arrival between the parts hands its buffer back (the wait ends its reads
// there), or where a write of its buffer lies between.
// CHECK-LABEL: func.func @not_chained
// CHECK-COUNT-4: tilegpu.warpgroup_dot {{.*}} : {{.*}}, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>{{$}}
// CHECK-SAME: {{$}}
// CHECK-NEXT: tilegpu.dot_wait %{{.*}} {pending = 0 : i32}
func.func @not_chained(%q: tensor<64x64xbf16, #a>, %k: !buf, %z: tensor<64x64xf32, #acc>, %empty: !tilegpu.mbarrier<2>, %i: i32, %b: tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %t0 = tilegpu.warpgroup_dot %q, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s0 = tilegpu.dot_wait %t0 {pending = 0 : i32} : !tok
  %t1 = tilegpu.warpgroup_dot %q, %k, %s0 transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s1 = tilegpu.dot_wait %t1 {pending = 0 : i32} : !tok
  tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
  %t2 = tilegpu.warpgroup_dot %q, %k, %s1 transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s2 = tilegpu.dot_wait %t2 {pending = 0 : i32} : !tok
  tilegpu.local_store %b, %k : tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, !buf
  %t3 = tilegpu.warpgroup_dot %q, %k, %s2 transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %s3 = tilegpu.dot_wait %t3 {pending = 0 : i32} : !tok
  return %s0, %s1, %s2, %s3 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// The fused backward's step in FlashAttention-3's order: dV's dot, dQ's,
// dK's, then dQ's rows are read while dK's dot runs. dQ's wait (pending 1)
// already completes dV's dot, so dV's accumulators are taken there; a
// later wait of its own would pass at once, but ptxas, counting groups
// only along straight code, can take them for ones in flight (C7514). A
// wait that leaves the dot pending (dK's, below dQ's) is not joined.
// CHECK-LABEL: func.func @joined
// CHECK: %[[TV:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[TQ:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[TK:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[W:.*]]:2 = tilegpu.dot_wait %[[TQ]], %[[TV]] {pending = 1 : i32}
// CHECK-NEXT: arith.mulf %[[W]]#0, %[[W]]#0
// CHECK-NEXT: %[[K:.*]] = tilegpu.dot_wait %[[TK]] {pending = 0 : i32}
// CHECK-NEXT: return %[[W]]#1, %{{.*}}, %[[K]]
func.func @joined(%p: tensor<64x64xbf16, #a>, %ds: tensor<64x64xbf16, #a>, %do: !buf, %k: !buf, %q: !buf, %dv: tensor<64x64xf32, #acc>, %dk: tensor<64x64xf32, #acc>, %z: tensor<64x64xf32, #acc>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %tv = tilegpu.warpgroup_dot %p, %do, %dv : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %v = tilegpu.dot_wait %tv {pending = 0 : i32} : !tok
  %tq = tilegpu.warpgroup_dot %ds, %k, %z : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %dq = tilegpu.dot_wait %tq {pending = 0 : i32} : !tok
  %tk = tilegpu.warpgroup_dot %ds, %q, %dk : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %kk = tilegpu.dot_wait %tk {pending = 0 : i32} : !tok
  %x = arith.mulf %dq, %dq : tensor<64x64xf32, #acc>
  return %v, %x, %kk : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
#row = #tilegpu.blocked<size_per_thread = [1, 1], threads = [16, 2], warps = [4, 1], order = [1, 0]>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// The overlapped key loop: S_j and the previous block's P·V (in two
// column parts) issue together, S's wait sinks past the P·V issue, and
// both P·V waits sink past the softmax to O's rescale. With
// keep-work-above-waits the first P·V wait takes the row sums the loop
// carries (2 registers a thread) as `after` values: not the exp2s (a
// yielded 64x64 tile, 32 registers), not a value the loop does not carry,
// and not again at the second part's wait.
// CHECK-LABEL: func.func @overlapped
// CHECK-NOT: after
// CHECK: return
// KEEP-LABEL: func.func @overlapped
// KEEP: %[[TS:.*]] = tilegpu.warpgroup_dot
// KEEP-NEXT: %[[PV0:.*]] = tilegpu.warpgroup_dot
// KEEP-NEXT: %[[PV1:.*]] = tilegpu.warpgroup_dot
// KEEP-NEXT: tilegpu.dot_wait %[[TS]] {pending = 2 : i32}
// KEEP-NEXT: %[[E:.*]] = math.exp2
// KEEP-NEXT: %[[L:.*]] = arith.addf
// KEEP-NEXT: arith.mulf
// KEEP-NEXT: tilegpu.dot_wait %[[PV0]] after(%[[L]] : tensor<64x4xf32, #{{.*}}>) {pending = 1 : i32}
// KEEP-NEXT: arith.mulf
// KEEP-NEXT: tilegpu.dot_wait %[[PV1]] {pending = 0 : i32}
// KEEP: scf.yield %{{.*}}, %{{.*}}, %[[L]], %[[E]] :
func.func @overlapped(%q: tensor<64x64xbf16, #a>, %k: !buf, %v0: !buf, %v1: !buf, %p: tensor<64x64xbf16, #a>, %z: tensor<64x64xf32, #acc>, %l0: tensor<64x4xf32, #row>, %n: index) -> (tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:4 = scf.for %i = %c0 to %n step %c1 iter_args(%o0 = %z, %o1 = %z, %l = %l0, %x = %z) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>, tensor<64x64xf32, #acc>) {
    %ts = tilegpu.warpgroup_dot %q, %k, %z transpose_b : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
    %s = tilegpu.dot_wait %ts {pending = 0 : i32} : !tok
    %tv0 = tilegpu.warpgroup_dot %p, %v0, %o0 : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
    %pv0 = tilegpu.dot_wait %tv0 {pending = 0 : i32} : !tok
    %tv1 = tilegpu.warpgroup_dot %p, %v1, %o1 : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
    %pv1 = tilegpu.dot_wait %tv1 {pending = 0 : i32} : !tok
    %e = math.exp2 %s : tensor<64x64xf32, #acc>
    %l1 = arith.addf %l, %l : tensor<64x4xf32, #row>
    %unused = arith.mulf %l1, %l1 : tensor<64x4xf32, #row>
    %n0 = arith.mulf %pv0, %pv0 : tensor<64x64xf32, #acc>
    %n1 = arith.mulf %pv1, %pv1 : tensor<64x64xf32, #acc>
    scf.yield %n0, %n1, %l1, %e : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>, tensor<64x64xf32, #acc>
  }
  return %r#0, %r#2 : tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
#row = #tilegpu.blocked<size_per_thread = [1, 1], threads = [16, 2], warps = [4, 1], order = [1, 0]>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// A wait joined to an earlier one keeps only the `after` values computed
// before that one (a value computed between could not be its operand).
// CHECK-LABEL: func.func @joined_after
// CHECK-SAME: %[[L:[^:]*]]: tensor<64x4xf32
// CHECK: %[[TV:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[TQ:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %[[TK:.*]] = tilegpu.warpgroup_dot
// CHECK-NEXT: %{{.*}}:2 = tilegpu.dot_wait %[[TQ]], %[[TV]] after(%[[L]] : tensor<64x4xf32, #{{.*}}>) {pending = 1 : i32}
func.func @joined_after(%p: tensor<64x64xbf16, #a>, %ds: tensor<64x64xbf16, #a>, %do: !buf, %k: !buf, %q: !buf, %dv: tensor<64x64xf32, #acc>, %dk: tensor<64x64xf32, #acc>, %z: tensor<64x64xf32, #acc>, %l: tensor<64x4xf32, #row>) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>) {
  %tv = tilegpu.warpgroup_dot %p, %do, %dv : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %tq = tilegpu.warpgroup_dot %ds, %k, %z : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %tk = tilegpu.warpgroup_dot %ds, %q, %dk : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
  %dq = tilegpu.dot_wait %tq {pending = 0 : i32} : !tok
  %x = arith.mulf %dq, %dq : tensor<64x64xf32, #acc>
  %lx = arith.addf %l, %l : tensor<64x4xf32, #row>
  %v = tilegpu.dot_wait %tv after(%l, %lx : tensor<64x4xf32, #row>, tensor<64x4xf32, #row>) {pending = 0 : i32} : !tok
  %kk = tilegpu.dot_wait %tk {pending = 0 : i32} : !tok
  return %v, %x, %kk, %lx : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#a = #tilegpu.wgmma_operand<warpgroups = 1>
#row = #tilegpu.blocked<size_per_thread = [1, 1], threads = [16, 2], warps = [4, 1], order = [1, 0]>
!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #acc>>
// Only a loop body's yield carries values to a next step: an scf.if's does
// not, and a warp role's region has no terminator at all.
// KEEP-LABEL: func.func @not_a_loop
// KEEP-NOT: after
// KEEP: return
func.func @not_a_loop(%p: tensor<64x64xbf16, #a>, %v: !buf, %z: tensor<64x64xf32, #acc>, %l: tensor<64x4xf32, #row>, %c: i1) -> (tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>) {
  %r:2 = scf.if %c -> (tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>) {
    %t = tilegpu.warpgroup_dot %p, %v, %z : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
    %o = tilegpu.dot_wait %t {pending = 0 : i32} : !tok
    %l1 = arith.addf %l, %l : tensor<64x4xf32, #row>
    %o1 = arith.mulf %o, %o : tensor<64x64xf32, #acc>
    scf.yield %o1, %l1 : tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>
  } else {
    scf.yield %z, %l : tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>
  }
  tilegpu.warp_specialize
    role warps = 4 registers = 240 {
      %t = tilegpu.warpgroup_dot %p, %v, %z : tensor<64x64xbf16, #a>, !buf, tensor<64x64xf32, #acc>
      %o = tilegpu.dot_wait %t {pending = 0 : i32} : !tok
      %l1 = arith.addf %l, %l : tensor<64x4xf32, #row>
      %o1 = arith.mulf %o, %o : tensor<64x64xf32, #acc>
    }
  return %r#0, %r#1 : tensor<64x64xf32, #acc>, tensor<64x4xf32, #row>
}
