// Round trip of every tilegpu attribute, type and op, in the custom form and
// in the generic form (the examples of dialects/TileGPU/*.td).
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s

#acc = #tilegpu.mma<warps = [4, 1]>
#opA = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#opB = #tilegpu.mma_operand<index = 1, warps = [4, 1]>
#blocked = #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
#swz = #tilegpu.swizzled<128>
#pad = #tilegpu.padded<16>

// General layouts print once, as aliases.
// CHECK-DAG: #[[L16:.+]] = #tilegpu.linear<reg = {{\[}}[0, 1], [8, 0]], lane = {{\[}}[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>
// CHECK-DAG: #[[L128:.+]] = #tilegpu.linear<reg = {{\[}}[8]], lane = {{\[}}[0], [0], [1], [2], [4]], warp = {{\[}}[16], [32], [64]]>
// CHECK-LABEL: func.func @layouts
// CHECK-SAME: tensor<16x8xf32, #[[L16]]>
// CHECK-SAME: tensor<128x64xf32, #tilegpu.mma<warps = [4, 1]>>
// CHECK-SAME: tensor<128x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>
// CHECK-SAME: tensor<64x128xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [2, 16], warps = [4, 1], order = [1, 0]>>
// CHECK-SAME: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
// CHECK-SAME: tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>
// CHECK-SAME: tensor<128xf32, #[[L128]]>
func.func @layouts(
    %a: tensor<16x8xf32, #tilegpu.linear<reg = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>,
    %b: tensor<128x64xf32, #acc>, %c: tensor<128x64xbf16, #opA>,
    %d: tensor<64x128xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [2, 16], warps = [4, 1], order = [1, 0]>>,
    %e: tensor<64x128xf32, #wgmma>, %f: tensor<64x64xbf16, #wgmmaA>,
    %g: tensor<128xf32, #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32], [64]]>>) {
  return
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: !tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>>
// CHECK-SAME: !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
// CHECK-SAME: !tilegpu.async_token
// CHECK-SAME: !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
// CHECK-SAME: !tilegpu.mbarrier<2>
// CHECK-SAME: !tilegpu.tensor_map<1x64x64xbf16, #tilegpu.swizzled<128>>
func.func @types(%a: !tilegpu.smem<2x64x128xbf16, #swz>, %b: !tilegpu.smem<64x64xbf16, #pad>,
                 %c: !tilegpu.async_token, %d: !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>,
                 %e: !tilegpu.mbarrier<2>, %f: !tilegpu.tensor_map<1x64x64xbf16, #swz>) {
  return
}

// CHECK-LABEL: func.func @registers_and_shared
func.func @registers_and_shared(%x: tensor<64x64xf32, #acc>, %i: i32) -> tensor<64x64xbf16, #opB> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>> -> tensor<64x64xf32, #tilegpu.blocked
  %b = tilegpu.convert_layout %x : tensor<64x64xf32, #acc> -> tensor<64x64xf32, #blocked>
  // CHECK: tilegpu.alloc : !tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>>
  %ring = tilegpu.alloc : !tilegpu.smem<2x64x128xbf16, #swz>
  // CHECK: tilegpu.alloc {offset = 32768 : i64} : !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
  %buf = tilegpu.alloc {offset = 32768 : i64} : !tilegpu.smem<64x64xbf16, #pad>
  // CHECK: tilegpu.slot %{{.*}}[%{{.*}}] : !tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>> -> !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
  %s = tilegpu.slot %ring[%i] : !tilegpu.smem<2x64x128xbf16, #swz> -> !tilegpu.smem<64x128xbf16, #swz>
  // CHECK: tilegpu.local_load %{{.*}} : !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>> -> tensor<64x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
  %t = tilegpu.local_load %buf : !tilegpu.smem<64x64xbf16, #pad> -> tensor<64x64xbf16, #opB>
  // CHECK: tilegpu.local_store %{{.*}}, %{{.*}} : tensor<64x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
  tilegpu.local_store %t, %buf : tensor<64x64xbf16, #opB>, !tilegpu.smem<64x64xbf16, #pad>
  return %t : tensor<64x64xbf16, #opB>
}

// CHECK-LABEL: func.func @scalars_and_claims
func.func @scalars_and_claims(%t: i32, %i: i32, %last: i32) -> (i32, i32) {
  %next = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  // CHECK: tilegpu.scalar_store %{{.*}}, %{{.*}}[%{{.*}}] : i32, !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  tilegpu.scalar_store %t, %next[%i] : i32, !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  // CHECK: tilegpu.scalar_load %{{.*}}[%{{.*}}] : !tilegpu.smem<4xi32, #tilegpu.padded<0>> -> i32
  %r = tilegpu.scalar_load %next[%i] : !tilegpu.smem<4xi32, #tilegpu.padded<0>> -> i32
  // CHECK: tilegpu.claim_tile last %{{.*}} : i32
  %claimed = tilegpu.claim_tile last %last : i32
  return %r, %claimed : i32, i32
}

// CHECK-LABEL: func.func @cp_async
func.func @cp_async(%k: !tile.desc<1x64x128xbf16>, %bh: i32, %n: i32,
                    %s: !tilegpu.smem<64x128xbf16, #swz>) {
  %c0 = arith.constant 0 : i32
  // CHECK: %[[T:.+]] = tilegpu.async_copy %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} : !tile.desc<1x64x128xbf16>, !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
  %t = tilegpu.async_copy %k[%bh, %n, %c0], %s : !tile.desc<1x64x128xbf16>, !tilegpu.smem<64x128xbf16, #swz>
  // CHECK: %[[G:.+]] = tilegpu.async_commit_group(%[[T]])
  %g = tilegpu.async_commit_group(%t)
  // CHECK: tilegpu.async_commit_group{{ *$}}
  %empty = tilegpu.async_commit_group
  // CHECK: tilegpu.async_wait %[[G]] {pending = 1 : i32}
  tilegpu.async_wait %g {pending = 1 : i32}
  return
}

// CHECK-LABEL: func.func @tma
func.func @tma(%kmap: !tilegpu.tensor_map<1x64x64xbf16, #swz>, %bh: i32, %n: i32, %i: i32,
               %phase: i32, %s: !tilegpu.smem<64x64xbf16, #swz>) {
  %c0 = arith.constant 0 : i32
  // CHECK: %[[FULL:.+]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
  // CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] expect_tx 8192 : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_arrive %full[%i] expect_tx 8192 : !tilegpu.mbarrier<2>
  // CHECK: tilegpu.mbarrier_arrive %[[FULL]][%{{.*}}] : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_arrive %full[%i] : !tilegpu.mbarrier<2>
  // CHECK: tilegpu.tma_load %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}, %[[FULL]][%{{.*}}] : !tilegpu.tensor_map<1x64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.mbarrier<2>
  tilegpu.tma_load %kmap[%bh, %n, %c0], %s, %full[%i]
      : !tilegpu.tensor_map<1x64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<2>
  // CHECK: tilegpu.mbarrier_wait %[[FULL]][%{{.*}}], %{{.*}} : !tilegpu.mbarrier<2>
  tilegpu.mbarrier_wait %full[%i], %phase : !tilegpu.mbarrier<2>
  // CHECK: tilegpu.tma_store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.tensor_map<1x64x64xbf16, #tilegpu.swizzled<128>>
  tilegpu.tma_store %s, %kmap[%bh, %n, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  // CHECK: tilegpu.tma_store add %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  tilegpu.tma_store add %s, %kmap[%bh, %n, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<1x64x64xbf16, #swz>
  // CHECK: tilegpu.tma_store_wait {pending = 0 : i32}
  tilegpu.tma_store_wait {pending = 0 : i32}
  return
}

// CHECK-LABEL: func.func @matmul
func.func @matmul(%a: tensor<64x16xbf16, #opA>, %b: tensor<16x32xbf16, #opB>,
                  %c: tensor<64x32xf32, #acc>, %q: !tilegpu.smem<64x64xbf16, #swz>,
                  %k: !tilegpu.smem<128x64xbf16, #swz>, %v: !tilegpu.smem<128x64xbf16, #swz>,
                  %s0: tensor<64x128xf32, #wgmma>, %o0: tensor<64x64xf32, #wgmma>,
                  %p: tensor<64x128xbf16, #wgmmaA>) -> tensor<64x32xf32, #acc> {
  // CHECK: tilegpu.mma %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  %d = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #opA>, tensor<16x32xbf16, #opB> -> tensor<64x32xf32, #acc>
  // CHECK: %[[S:.+]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
  %st = tilegpu.warpgroup_dot %q, %k, %s0 transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz>, tensor<64x128xf32, #wgmma>
  // CHECK: %[[O:.+]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  %ot = tilegpu.warpgroup_dot %p, %v, %o0
      : tensor<64x128xbf16, #wgmmaA>, !tilegpu.smem<128x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
  // CHECK: tilegpu.dot_wait %[[S]] {pending = 1 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>>
  %s = tilegpu.dot_wait %st {pending = 1 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #wgmma>>
  // CHECK: tilegpu.dot_wait %[[O]] {pending = 0 : i32}
  %o = tilegpu.dot_wait %ot {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
  // A chain: the second part of a sum over K adds onto the first's token.
  // CHECK: %[[C0:.+]] = tilegpu.warpgroup_dot
  // CHECK-NEXT: %[[C1:.+]] = tilegpu.warpgroup_dot %{{.*}}, %{{.*}}, %[[C0]] transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.dot_token<tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>>
  // CHECK-NEXT: tilegpu.dot_wait %[[C1]] {pending = 0 : i32}
  %c0 = tilegpu.warpgroup_dot %q, %k, %s0 transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz>, tensor<64x128xf32, #wgmma>
  %c1 = tilegpu.warpgroup_dot %q, %k, %c0 transpose_b
      : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<128x64xbf16, #swz>, !tilegpu.dot_token<tensor<64x128xf32, #wgmma>>
  %sum = tilegpu.dot_wait %c1 {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x128xf32, #wgmma>>
  return %d : tensor<64x32xf32, #acc>
}

// CHECK-LABEL: func.func @roles
func.func @roles() {
  %c1 = arith.constant 1 : i32
  // CHECK: tilegpu.warp_specialize
  // CHECK-NEXT: role warps = 4 registers = 40 {
  // CHECK-NEXT: tilegpu.barrier_arrive %{{.*}}, 384
  // CHECK: role warps = 8 registers = 232 {
  // CHECK-NEXT: tilegpu.barrier_sync %{{.*}}, 384
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      tilegpu.barrier_arrive %c1, 384
    }
    role warps = 8 registers = 232 {
      tilegpu.barrier_sync %c1, 384
    }
  // CHECK: tilegpu.warpgroup_id : i32
  %wg = tilegpu.warpgroup_id : i32
  // CHECK: tilegpu.warp_id : i32
  %warp = tilegpu.warp_id : i32
  // CHECK: tilegpu.barrier{{ *$}}
  tilegpu.barrier
  // CHECK: tilegpu.fence async_proxy
  tilegpu.fence async_proxy
  // CHECK: tilegpu.fence mbarrier_init
  tilegpu.fence mbarrier_init
  return
}
