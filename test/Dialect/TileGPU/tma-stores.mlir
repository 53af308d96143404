// tilegpu-tma-stores: a kernel's closing block store of a whole tile goes
// through a 128-byte-swizzled shared buffer and one TMA store (a box per
// column block) issued by the first warp of the threads that run it, which
// then waits until the copy has read the buffer (in a tile loop: before the
// next tile writes it). A block atomic add in a loop (the fused backward's
// dQ) goes the same way as a TMA reduction (`tma_store add`). Stores in
// nested loops or branches, through
// descriptors that are not their argument's own, of rows that are not whole
// 128-byte column blocks, or of one row stay as they are.
// RUN: tilec-opt %s -split-input-file --tilegpu-tma-stores | FileCheck %s
// With f32-staging-bytes=32 an f32 tile stages in 32-byte column blocks
// (TMA boxes of 8 columns, 32-byte swizzle); 16-bit tiles keep 128 bytes.
// RUN: tilec-opt %s -split-input-file --tilegpu-tma-stores=f32-staging-bytes=32 \
// RUN:   | FileCheck %s --check-prefix=F32B32
// RUN: not tilec-opt %s -split-input-file --tilegpu-tma-stores=f32-staging-bytes=64 2>&1 \
// RUN:   | FileCheck %s --check-prefix=F32B64
// F32B64: f32-staging-bytes must be 128 or 32, got 64
// The output prints, parses and re-enters the passes that follow (the fence
// and the barrier before the copy are tilegpu-insert-barriers'), down to NVVM:
// RUN: tilec-opt %s -split-input-file --tilegpu-tma-stores --tilegpu-insert-barriers | FileCheck %s --check-prefix=SYNC
// RUN: tilec-opt %s -split-input-file --tilegpu-tma-stores | tilec-opt -split-input-file --tilegpu-insert-barriers --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm -o /dev/null
// RUN: tilec-opt %s -split-input-file --tilegpu-tma-stores=f32-staging-bytes=32 | tilec-opt -split-input-file --tilegpu-insert-barriers --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm -o /dev/null

#acc = #tilegpu.wgmma<warpgroups = 2>
#l3 = #tilegpu.linear<reg = [[0, 0, 1], [0, 8, 0], [0, 0, 8], [0, 0, 16], [0, 0, 32], [0, 0, 64]], lane = [[0, 0, 2], [0, 0, 4], [0, 1, 0], [0, 2, 0], [0, 4, 0]], warp = [[0, 16, 0], [0, 32, 0], [0, 64, 0]]>
#row = #tilegpu.linear<reg = [[0, 8]], lane = [[0, 0], [0, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32], [0, 64]]>

// O of attention, 128x128 bf16 from two warpgroups, stored in the kernel's
// body: one map with a 1x128x64 box (one 128-byte column block) for O's
// argument (#0), O marked aligned; the store through shared memory (by
// stmatrix: wgmma accumulators of 16 bits), warp 0 (thread indices below
// 32) copying. The 1-row LSE store stays. (The f32 dQ staging below is
// stored element by element: stmatrix moves 16-bit elements only.)
// CHECK-LABEL: func.func @epilogue
// CHECK-SAME: %[[MAP:[^:]*]]: !tilegpu.tensor_map<1x128x64xbf16, #tilegpu.swizzled<128>>)
// CHECK-SAME: tilec.aligned_args = array<i64: 0>
// CHECK-SAME: tilec.tensor_maps = [{box = array<i64: 1, 128, 64>, swizzle = 128 : i64, tensor = 0 : i64}]
// CHECK: %[[BUF:.+]] = tilegpu.alloc : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.local_store matrix %{{.*}}, %[[BUF]] : tensor<128x128xbf16, #tilegpu.wgmma<warpgroups = 2>>
// CHECK-NEXT: %[[WARP:.+]] = tilegpu.warp_id
// CHECK: %[[W0:.+]] = arith.cmpi eq, %[[WARP]], %c0
// CHECK-NEXT: scf.if %[[W0]] {
// CHECK-NEXT: tilegpu.tma_store %[[BUF]], %[[MAP]][%{{.*}}, %{{.*}}, %c0{{.*}}] : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>, !tilegpu.tensor_map<1x128x64xbf16, #tilegpu.swizzled<128>>
// CHECK-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// CHECK-NEXT: }
// CHECK-NOT: tile.reshape %{{.*}} : tensor<128x128xbf16
// CHECK: tile.store_block %{{.*}} : !tile.desc<1x128xf32>
// SYNC-LABEL: func.func @epilogue
// SYNC: tilegpu.local_store
// SYNC: arith.cmpi
// SYNC-NEXT: tilegpu.fence async_proxy
// SYNC-NEXT: tilegpu.barrier
// SYNC-NEXT: scf.if
// SYNC-NEXT: tilegpu.tma_store
func.func @epilogue(%po: !tile.ptr<bf16>, %ob: i32, %on: i32, %od: i32, %obs: i64, %ons: i64, %ods: i64,
                    %pl: !tile.ptr<f32>, %lb: i32, %ln: i32, %lbs: i64, %lns: i64,
                    %o: tensor<128x128xbf16, #acc>, %lse: tensor<1x128xf32, #row>, %bh: i32, %m: i32) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %do = tile.make_desc %po, [%ob, %on, %od], [%obs, %ons, %ods] : !tile.ptr<bf16> -> !tile.desc<1x128x128xbf16>
  %dl = tile.make_desc %pl, [%lb, %ln], [%lbs, %lns] : !tile.ptr<f32> -> !tile.desc<1x128xf32>
  %o3 = tile.reshape %o : tensor<128x128xbf16, #acc> -> tensor<1x128x128xbf16, #l3>
  tile.store_block %do[%bh, %m, %c0], %o3 : !tile.desc<1x128x128xbf16>, tensor<1x128x128xbf16, #l3>
  tile.store_block %dl[%bh, %m], %lse : !tile.desc<1x128xf32>, tensor<1x128xf32, #row>
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 2>
// In the consumer role of a warp-specialized kernel: a barrier of the role
// first (the staging buffer may take the bytes of blocks the role has read,
// which the allocator gives only across one); the first warp of the role's
// first warpgroup copies (the role's thread indices start at 128).
// CHECK-LABEL: func.func @in_role
// CHECK: role warps = 8
// CHECK: %[[RID:.+]] = arith.constant 2 : i32
// CHECK-NEXT: tilegpu.barrier_sync %[[RID]], 256
// CHECK-NEXT: tilegpu.alloc
// CHECK-NEXT: tilegpu.local_store
// CHECK-NEXT: %[[WARP:.+]] = tilegpu.warp_id
// CHECK: %[[W0:.+]] = arith.cmpi eq, %[[WARP]], %c0
// CHECK-NEXT: scf.if %[[W0]] {
// CHECK-NEXT: tilegpu.tma_store
// SYNC-LABEL: func.func @in_role
// SYNC: tilegpu.fence async_proxy
// SYNC-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// SYNC-NEXT: tilegpu.barrier_sync %[[ID]], 256
// SYNC-NEXT: scf.if
// SYNC-NEXT: tilegpu.tma_store
func.func @in_role(%po: !tile.ptr<bf16>, %on: i32, %od: i32, %ons: i64, %ods: i64,
                   %o: tensor<128x128xbf16, #acc>, %m: i32) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %do = tile.make_desc %po, [%on, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<128x128xbf16>
  tilegpu.warp_specialize
    role warps = 4 registers = 24 {
    }
    role warps = 8 registers = 240 {
      tile.store_block %do[%m, %c0], %o : !tile.desc<128x128xbf16>, tensor<128x128xbf16, #acc>
    }
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
// In a loop directly in the kernel's body (a persistent kernel's tile loop)
// the buffer is written again a tile later: the first warp waits for the
// last tile's copy before the write (the loop has no barrier yet, nor a
// shared store before it), the copy itself is not waited for in the loop,
// and after the loop the last one is. tilegpu-insert-barriers puts the
// block's barrier between the wait and the write.
// CHECK-LABEL: func.func @tile_loop
// CHECK: scf.for
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.alloc
// CHECK-NEXT: tilegpu.local_store
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// CHECK: return
// SYNC-LABEL: func.func @tile_loop
// SYNC: scf.for
// SYNC: tilegpu.tma_store_wait {pending = 0 : i32}
// SYNC-NEXT: }
// SYNC-NEXT: tilegpu.alloc
// SYNC-NEXT: tilegpu.barrier
// SYNC-NEXT: tilegpu.local_store
func.func @tile_loop(%po: !tile.ptr<bf16>, %on: i32, %od: i32, %ons: i64, %ods: i64,
                     %o: tensor<64x128xbf16, #acc>, %n: i32) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %do = tile.make_desc %po, [%on, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    tile.store_block %do[%i, %c0], %o : !tile.desc<64x128xbf16>, tensor<64x128xbf16, #acc>
  }
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
// Left as they are: a store in a loop in a loop, one in a branch, a
// descriptor whose sizes are not its argument's (a packed sequence's: TMA
// would write past its end), rows of 64 bytes.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: tilegpu.tma_store
// CHECK-COUNT-4: tile.store_block
// CHECK-NOT: tilegpu.tma_store
func.func @kept(%po: !tile.ptr<bf16>, %on: i32, %od: i32, %ons: i64, %ods: i64,
                %o: tensor<64x128xbf16, #acc>, %narrow: tensor<64x32xbf16, #acc>, %len: i32, %n: i32,
                %flag: i1) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %do = tile.make_desc %po, [%on, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  scf.for %i = %c0 to %n step %c64 : i32 {
    scf.for %j = %c0 to %n step %c64 : i32 {
      tile.store_block %do[%j, %c0], %o : !tile.desc<64x128xbf16>, tensor<64x128xbf16, #acc>
    }
  }
  scf.if %flag {
    tile.store_block %do[%c0, %c0], %o : !tile.desc<64x128xbf16>, tensor<64x128xbf16, #acc>
  }
  %packed = tile.make_desc %po, [%len, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  tile.store_block %packed[%c0, %c0], %o : !tile.desc<64x128xbf16>, tensor<64x128xbf16, #acc>
  %dn = tile.make_desc %po, [%on, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<64x32xbf16>
  tile.store_block %dn[%c0, %c0], %narrow : !tile.desc<64x32xbf16>, tensor<64x32xbf16, #acc>
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// Block atomic adds of f32 in consecutive loops (the fused backward's three
// key loops, each adding a step's dQ share): a TMA reduction each, from one
// buffer that the first loop's staging made and the second moved before
// the first loop. In each, the first warp waits for the last copy before
// the body's first shared store (the step's dSᵀ, whose barrier then covers
// the add's buffer too) and after the loop.
// CHECK-LABEL: func.func @adds_in_loops
// F32B32-LABEL: func.func @adds_in_loops
// F32B32: tilegpu.alloc : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<32>>
// F32B32: tilegpu.tma_store add %{{.+}} : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<32>>, !tilegpu.tensor_map<64x8xf32, #tilegpu.swizzled<32>>
// CHECK: %[[BUF:.+]] = tilegpu.alloc : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<128>>
// CHECK-NEXT: scf.for
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.local_store %{{.+}}, %[[DS:.+]] :
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.local_store %{{.+}}, %[[BUF]]
// CHECK: scf.if
// CHECK-NEXT: tilegpu.tma_store add %[[BUF]], %{{.+}}[%{{.+}}, %c0{{.*}}] : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<128>>, !tilegpu.tensor_map<64x32xf32, #tilegpu.swizzled<128>>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK: tilegpu.tma_store_wait
// CHECK: scf.for
// CHECK: tilegpu.local_store %{{.+}}, %[[BUF]]
// CHECK: tilegpu.tma_store add %[[BUF]]
// CHECK: }
// CHECK: tilegpu.tma_store_wait
// CHECK-NOT: tile.atomic_add_block
// CHECK: return
// After tilegpu-insert-barriers: one barrier publishes dSᵀ and orders the
// add's buffer after the wait (no barrier before the wait's branch, which
// only reads); one, fenced, publishes the add's buffer to TMA.
// SYNC-LABEL: func.func @adds_in_loops
// SYNC: scf.for
// SYNC-NOT: tilegpu.barrier
// SYNC: tilegpu.tma_store_wait {pending = 0 : i32}
// SYNC-NEXT: }
// SYNC-NEXT: tilegpu.local_store
// SYNC-NEXT: tilegpu.barrier
// SYNC-NEXT: tilegpu.local_load
// SYNC-NEXT: tilegpu.local_store
// SYNC: tilegpu.fence async_proxy
// SYNC-NEXT: tilegpu.barrier
// SYNC-NEXT: scf.if
// SYNC-NEXT: tilegpu.tma_store add
func.func @adds_in_loops(%pq: !tile.ptr<f32>, %qn: i32, %qd: i32, %qns: i64, %qds: i64,
                         %ds: tensor<64x64xbf16, #blocked>, %dq: tensor<64x128xf32, #acc>,
                         %n: i32) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %dacc = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<f32> -> !tile.desc<64x128xf32>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %s = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
    tilegpu.local_store %ds, %s : tensor<64x64xbf16, #blocked>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
    %r = tilegpu.local_load %s : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>> -> tensor<64x64xbf16, #blocked>
    tile.atomic_add_block %dacc[%i, %c0], %dq : !tile.desc<64x128xf32>, tensor<64x128xf32, #acc>
  }
  scf.for %i = %c0 to %n step %c64 : i32 {
    tile.atomic_add_block %dacc[%i, %c0], %dq : !tile.desc<64x128xf32>, tensor<64x128xf32, #acc>
  }
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// Whether the add's 32 KiB buffer surely fits counts, of consecutive loops,
// the one whose buffers need most (80 KiB; tilegpu-allocate-shared-memory
// lets the loops' buffers share bytes), not the three together (240 KiB,
// which would leave the add as it is).
// CHECK-LABEL: func.func @fits_beside_consecutive_loops
// CHECK: tilegpu.tma_store add
// CHECK-NOT: tile.atomic_add_block
// CHECK: return
func.func @fits_beside_consecutive_loops(%pq: !tile.ptr<f32>, %qn: i32, %qd: i32, %qns: i64,
                                         %qds: i64, %p: tensor<128x256xbf16, #blocked>, %x: tensor<64x128xbf16, #blocked>,
                                         %dq: tensor<64x128xf32, #acc>,
                                         %n: i32) attributes {tilegpu.kernel} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %dacc = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<f32> -> !tile.desc<64x128xf32>
  scf.for %i = %c0 to %n step %c64 : i32 {
    %s = tilegpu.alloc : !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %p, %s : tensor<128x256xbf16, #blocked>, !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    %t = tilegpu.alloc : !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %x, %t : tensor<64x128xbf16, #blocked>, !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
    tile.atomic_add_block %dacc[%i, %c0], %dq : !tile.desc<64x128xf32>, tensor<64x128xf32, #acc>
  }
  scf.for %i = %c0 to %n step %c64 : i32 {
    %s = tilegpu.alloc : !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %p, %s : tensor<128x256xbf16, #blocked>, !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    %t = tilegpu.alloc : !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %x, %t : tensor<64x128xbf16, #blocked>, !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
  }
  scf.for %i = %c0 to %n step %c64 : i32 {
    %s = tilegpu.alloc : !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %p, %s : tensor<128x256xbf16, #blocked>, !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
    %t = tilegpu.alloc : !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
    tilegpu.local_store %x, %t : tensor<64x128xbf16, #blocked>, !tilegpu.smem<64x128xbf16, #tilegpu.padded<0>>
  }
  return
}

// -----

#acc = #tilegpu.wgmma<warpgroups = 1>
#blocked = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// The same loops inside a persistent kernel's tile loop (the persistent
// fused backward's key loops): the add goes by TMA as in a loop of the
// kernel's body — its buffer made in the tile loop's body before the first
// key loop, each key loop's last copy waited for after it — and so does the
// tile's closing store in the tile loop, whose buffer also fits beside the
// key loops' (tilegpu-allocate-shared-memory measures live ranges in the
// tile loop's body too).
// CHECK-LABEL: func.func @in_tile_loop
// F32B32-LABEL: func.func @in_tile_loop
// F32B32: tilegpu.alloc : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<32>>
// F32B32: tilegpu.alloc : !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
// CHECK: scf.for
// CHECK-NEXT: %[[BUF:.+]] = tilegpu.alloc : !tilegpu.smem<64x128xf32, #tilegpu.swizzled<128>>
// CHECK-NEXT: scf.for
// CHECK: tilegpu.tma_store add %[[BUF]]
// CHECK: tilegpu.tma_store_wait
// CHECK: scf.for
// CHECK: tilegpu.tma_store add %[[BUF]]
// CHECK: tilegpu.tma_store_wait
// CHECK: tilegpu.alloc : !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
// CHECK: tilegpu.tma_store %{{.+}}, %{{.+}}[%{{.+}}, %c0{{.*}}] : !tilegpu.smem<64x128xbf16
// CHECK-NOT: tile.atomic_add_block
// CHECK-NOT: tile.store_block
// CHECK: return
func.func @in_tile_loop(%pq: !tile.ptr<f32>, %qn: i32, %qd: i32, %qns: i64, %qds: i64,
                        %po: !tile.ptr<bf16>, %on: i32, %od: i32, %ons: i64, %ods: i64,
                        %p: tensor<128x256xbf16, #blocked>, %o: tensor<64x128xbf16, #acc>,
                        %dq: tensor<64x128xf32, #acc>,
                        %n: i32) attributes {tilegpu.kernel, tilec.persistent} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %dacc = tile.make_desc %pq, [%qn, %qd], [%qns, %qds] : !tile.ptr<f32> -> !tile.desc<64x128xf32>
  %out = tile.make_desc %po, [%on, %od], [%ons, %ods] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  scf.for %t = %c0 to %n step %c1 : i32 {
    scf.for %i = %c0 to %n step %c64 : i32 {
      %s = tilegpu.alloc : !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
      tilegpu.local_store %p, %s : tensor<128x256xbf16, #blocked>, !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
      tile.atomic_add_block %dacc[%i, %c0], %dq : !tile.desc<64x128xf32>, tensor<64x128xf32, #acc>
    }
    scf.for %i = %c0 to %n step %c64 : i32 {
      %s = tilegpu.alloc : !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
      tilegpu.local_store %p, %s : tensor<128x256xbf16, #blocked>, !tilegpu.smem<128x256xbf16, #tilegpu.padded<0>>
      tile.atomic_add_block %dacc[%i, %c0], %dq : !tile.desc<64x128xf32>, tensor<64x128xf32, #acc>
    }
    tile.store_block %out[%t, %c0], %o : !tile.desc<64x128xbf16>, tensor<64x128xbf16, #acc>
  }
  return
}
