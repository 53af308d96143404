// --tile-counter: the persistent, warp-specialized causal forward claims
// its tiles from a counter (tilegpu-claim-tiles). The producer warp starts
// from its program id, hands each tile index to the consumers through a
// two-slot buffer (thread 0 stores, then arrives on "full"; free again
// once the consumers arrive on "empty"), claims the next one after the
// tile's copies, and hands over one index past the last tile at the end;
// the consumers loop while the index they read is a tile. In PTX the
// counter is a global of the module and lane 0 claims (atom.global.add),
// resetting it on the launch's last claim.
// RUN: rm -rf %t.dump
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --tile-counter --emit=ptx -o %t.ptx --dump-ir-dir=%t.dump
// RUN: cat %t.dump/*/*_tilegpu-claim-tiles.mlir | FileCheck %s
// The IR after the pass prints, parses and prints again the same:
// RUN: cat %t.dump/*/*_tilegpu-claim-tiles.mlir | tilec-opt | FileCheck %s
// RUN: cat %t.dump/*/*_tilegpu-claim-tiles.mlir | tilec-opt --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm | FileCheck %s --check-prefix=REENTER
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.json
// The causal d = 128 forward claims its tiles by default (measured faster,
// bench/RESULTS.md session 36), the dense one keeps the static order, and
// --tile-counter=false gives the static order back:
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.default.ptx
// RUN: cmp %t.ptx %t.default.ptx
// RUN: FileCheck %s --check-prefix=META < %t.default.json
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --tile-counter=false --emit=ptx -o %t.static.ptx
// RUN: FileCheck %s --check-prefix=STATIC < %t.static.json
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.dense.ptx
// RUN: FileCheck %s --check-prefix=STATIC < %t.dense.json
// The flag needs a persistent, warp-specialized kernel:
// RUN: not tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --tile-counter --persistent=false --emit=ptx -o %t.no.ptx 2>&1 | FileCheck %s --check-prefix=NOTPERSISTENT
// RUN: not tilec --kernel=flash_attention_fwd_causal --arch=sm_80 --tile-counter --persistent --emit=ptx -o %t.no.ptx 2>&1 | FileCheck %s --check-prefix=NOTPERSISTENT

// CHECK-LABEL: func.func @flash_attention_fwd_causal
// CHECK-NOT: tilec.tile_counter
// CHECK: %[[NEXT:.*]] = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
// CHECK-NEXT: %[[FULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
// CHECK-NEXT: %[[EMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<2>
// CHECK-NEXT: tilegpu.warp_specialize
// CHECK-NEXT: role warps = 4
// CHECK: %[[FIRST:.*]] = tile.program_id 0
// CHECK: %[[STEP:.*]] = tile.num_programs 0
// CHECK: %[[LAST:.*]] = arith.subi %[[TOTAL:[0-9]+]], %{{.*}}
// CHECK: %[[P:.*]]:3 = scf.while (%[[T:.*]] = %[[FIRST]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}})
// CHECK-NEXT: %[[MORE:.*]] = arith.cmpi slt, %[[T]], %[[TOTAL]]
// CHECK-NEXT: scf.condition(%[[MORE]])
// CHECK: ^bb0(%[[TILE:.*]]: i32, %{{.*}}: i32, %[[K:.*]]: i32):
// CHECK: %[[SLOT:.*]] = arith.remui %[[K]], %c2
// CHECK: %[[ROUND:.*]] = arith.divui %[[K]], %c2
// CHECK: %[[FREE:.*]] = arith.addi %[[ROUND]], %c1
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]][%[[SLOT]]], %[[FREE]]
// CHECK: scf.if
// CHECK-NEXT: tilegpu.scalar_store %[[TILE]], %[[NEXT]][%[[SLOT]]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[FULL]][%[[SLOT]]]
// CHECK: tilegpu.tma_load
// CHECK: %[[CLAIMED:.*]] = tilegpu.claim_tile last %[[LAST]] : i32
// CHECK-NEXT: %[[AFTER:.*]] = arith.addi %[[CLAIMED]], %[[STEP]]
// CHECK-NEXT: scf.yield %[[AFTER]], %{{.*}}, %{{.*}} : i32, i32, i32
// CHECK: %[[STOPSLOT:.*]] = arith.remui %[[P]]#2, %c2
// CHECK: tilegpu.mbarrier_wait %[[EMPTY]][%[[STOPSLOT]]]
// CHECK: tilegpu.scalar_store %[[P]]#0, %[[NEXT]][%[[STOPSLOT]]]
// CHECK: role warps = 8
// CHECK: scf.while (%{{.*}} = %c0{{.*}}, %[[CK:.*]] = %c0{{.*}}) : (i32, i32) -> (i32, i32, i32)
// CHECK: %[[CSLOT:.*]] = arith.remui %[[CK]], %c2
// CHECK: %[[CROUND:.*]] = arith.divui %[[CK]], %c2
// CHECK: tilegpu.mbarrier_wait %[[FULL]][%[[CSLOT]]], %[[CROUND]]
// CHECK-NEXT: %[[CT:.*]] = tilegpu.scalar_load %[[NEXT]][%[[CSLOT]]]
// CHECK-NEXT: tilegpu.mbarrier_arrive %[[EMPTY]][%[[CSLOT]]]
// CHECK-NEXT: %[[CMORE:.*]] = arith.cmpi slt, %[[CT]], %{{.*}}
// CHECK-NEXT: scf.condition(%[[CMORE]]) %[[CT]]
// CHECK: } do {
// CHECK: tilegpu.warpgroup_dot

// PTX: .global .align 4 .u32 flash_attention_fwd_causal_tiles;
// PTX: @%lane0 atom.global.add.u32 %claimed, [%[[A:rd[0-9]+]]], 1;
// PTX-NEXT: setp.eq.and.u32 %reset, %claimed, %{{r[0-9]+}}, %lane0;
// PTX-NEXT: @%reset st.global.u32 [%[[A]]], 0;
// PTX-NEXT: shfl.sync.idx.b32 %{{r[0-9]+}}, %claimed, 0, 0x1f, 0xffffffff;

// The metadata says so (launchers load such a module once per stream):
// META: "persistent": true,
// META-NEXT: "tile_counter": true,
// STATIC: "persistent": true,
// STATIC-NOT: tile_counter

// The dumped IR goes on through the remaining passes:
// REENTER: llvm.mlir.global internal @flash_attention_fwd_causal_tiles(0 : i32)
// REENTER: llvm.inline_asm has_side_effects {{.*}}atom.global.add.u32

// NOTPERSISTENT: --tile-counter needs --persistent and --warp-specialize
