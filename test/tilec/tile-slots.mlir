// --tile-slots=2: a persistent, warp-specialized forward takes Q (the block
// each tile reads from its start) on two slots, so the producer loads the
// next tile's Q while the consumers work on this one. The K/V ring keeps
// its stages; the last V block (read after the key loops) keeps one slot.
// Causal d = 80 and 96 take it by default (with the tile counter; measured
// faster, bench/RESULTS.md session 36), and so does causal d = 112
// (session 38); causal d = 128 and the dense forward do not.
// RUN: rm -rf %t.d96 %t.d96one %t.d80
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=96 --emit=ptx -o %t.d96.ptx --dump-ir-dir=%t.d96
// RUN: cat %t.d96/*/*_tilegpu-pipeline-streams.mlir | FileCheck %s --check-prefix=TWO
// RUN: FileCheck %s --check-prefix=META < %t.d96.json
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=80 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=96 --tile-slots=1 --emit=ptx -o %t.d96one.ptx --dump-ir-dir=%t.d96one
// RUN: cat %t.d96one/*/*_tilegpu-pipeline-streams.mlir | FileCheck %s --check-prefix=ONE
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=96 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=DENSE
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=CAUSAL128
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=112 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=DEFAULT
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=DENSE
// At d = 128 a second Q slot leaves no room for O's staging buffer:
// tilegpu-tma-stores stages O in the last V block's ring slot instead (the
// consumers are done with it; the producer refills it only at the end of
// the next tile's copies), and its "empty" arrival moves behind the copy.
// RUN: rm -rf %t.d128
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --tile-slots=2 --emit=ptx -o %t.d128.ptx --dump-ir-dir=%t.d128
// RUN: cat %t.d128/*/*_tilegpu-tma-stores.mlir | FileCheck %s --check-prefix=STAGEINV
// tilegpu-tma-stores on its own input (the IR after pipeline-streams), and
// its output through the passes that follow:
// RUN: cat %t.d128/*/*_tilegpu-pipeline-streams.mlir | tilec-opt --tilegpu-tma-stores | FileCheck %s --check-prefix=STAGEINV
// RUN: cat %t.d128/*/*_tilegpu-pipeline-streams.mlir | tilec-opt --tilegpu-tma-stores | tilec-opt --canonicalize --cse --tilegpu-lower-conversions --cse --tilegpu-sink-dot-waits --tilegpu-insert-barriers --tilegpu-ping-pong --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm -o /dev/null
// RUN: FileCheck %s --check-prefix=STAGING < %t.d128.ptx
// Where no ring is refilled late and nothing else has O's size (the
// persistent d = 256 forward), in the one-slot ring the producer refills
// at the tile's start, Q's: the next tile's Q then waits for O's copy
// (rather than O leaving from registers, 64 stores a thread).
// RUN: rm -rf %t.d256
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=256 --persistent --emit=ptx -o %t.d256.ptx --dump-ir-dir=%t.d256
// RUN: cat %t.d256/*/*_tilegpu-tma-stores.mlir | FileCheck %s --check-prefix=QSTAGE
// The pass alone on its input (the streams pass's output), which prints,
// parses and goes on to NVVM:
// RUN: cat %t.d256/*/*_tilegpu-pipeline-streams.mlir | tilec-opt --tilegpu-tma-stores | FileCheck %s --check-prefix=QSTAGE
// RUN: cat %t.d256/*/*_tilegpu-pipeline-streams.mlir | tilec-opt --tilegpu-tma-stores | tilec-opt --canonicalize --cse --tilegpu-lower-conversions --cse --tilegpu-sink-dot-waits --tilegpu-insert-barriers --tilegpu-ping-pong --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm -o /dev/null
// RUN: FileCheck %s --check-prefix=QSTAGEPTX < %t.d256.ptx
// Errors:
// RUN: not tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=96 --tile-slots=3 --emit=ptx -o %t.no.ptx 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=96 --tile-slots=2 --persistent=false --emit=ptx -o %t.no.ptx 2>&1 | FileCheck %s --check-prefix=NOTPERSISTENT

// Q's ring (128 rows, the 64 columns Q·Kᵀ reads from shared memory) and
// its barriers come after the K/V ring's: two slots each.
// TWO: tilec.target = {{{.*}}persistent = true{{.*}}tile_counter = true, tile_slots = 2 : i64
// TWO: tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<2>
// TWO-NEXT: tilegpu.alloc : !tilegpu.smem<2x128x64xbf16, #tilegpu.swizzled<128>>
// TWO-NEXT: tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
// TWO-NEXT: tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<2>
// TWO-NEXT: tilegpu.alloc : !tilegpu.smem<1x128x64xbf16, #tilegpu.swizzled<128>>
// TWO-NEXT: tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>

// ONE: tilec.target = {{{.*}}tile_slots = 1 : i64
// ONE: tilegpu.mbarrier_create {arrivals = 256 : i32} : !tilegpu.mbarrier<2>
// ONE-NEXT: tilegpu.alloc : !tilegpu.smem<1x128x64xbf16, #tilegpu.swizzled<128>>
// ONE-NEXT: tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>

// META: "persistent": true,
// META: "tile_counter": true

// DEFAULT: persistent=true {{.*}}tile-counter=true tile-slots=2
// DENSE: persistent=true {{.*}}tile-counter=false tile-slots=1
// CAUSAL128: persistent=true {{.*}}tile-counter=true tile-slots=1

// The last V block's ring (one slot) and its barriers: "empty" counts the
// storing warp's 32 threads now, not the 256 consumers.
// STAGEINV: tilegpu.alloc : !tilegpu.smem<2x128x128xbf16
// STAGEINV: %[[VRING:.*]] = tilegpu.alloc : !tilegpu.smem<1x128x128xbf16, #tilegpu.swizzled<128>>
// STAGEINV-NEXT: %[[VFULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
// STAGEINV-NEXT: %[[VEMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 32 : i32} : !tilegpu.mbarrier<1>
// STAGEINV: role warps = 8 registers = 240 {
// STAGEINV: %[[VSLOT:.*]] = tilegpu.slot %[[VRING]][%[[VAT:.*]]] :
// STAGEINV: tilegpu.mbarrier_wait %[[VFULL]][%[[VAT]]]
// STAGEINV-NEXT: tilegpu.warpgroup_dot %{{.*}}, %[[VSLOT]]
// STAGEINV-NOT: tilegpu.mbarrier_arrive %[[VEMPTY]]
// STAGEINV: tilegpu.barrier_sync
// STAGEINV-NEXT: tilegpu.local_store matrix %{{.*}}, %[[VSLOT]]
// STAGEINV: tilegpu.tma_store %[[VSLOT]]
// STAGEINV-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// STAGEINV-NEXT: tilegpu.mbarrier_arrive %[[VEMPTY]][%[[VAT]]]
// STAGING: cp.async.bulk.tensor.3d.global.shared::cta
// Q's ring (one slot) and its "empty" barrier, which now counts the warp
// that stores O (the consumers' only arrival on it, tilegpu-tma-stores
// checks); that warp arrives once the copy has read the slot.
// QSTAGE: %[[QRING:.*]] = tilegpu.alloc : !tilegpu.smem<1x128x256xbf16, #tilegpu.swizzled<128>>
// QSTAGE-NEXT: %[[QFULL:.*]] = tilegpu.mbarrier_create {arrivals = 1 : i32}
// QSTAGE-NEXT: %[[QEMPTY:.*]] = tilegpu.mbarrier_create {arrivals = 32 : i32}
// QSTAGE: role warps = 8 registers = 240 {
// The consumers' own arrival on it after their key loops is gone (it moved
// behind the copy), and a barrier of the consumers precedes O's store into
// the slot (all of them are done reading Q).
// QSTAGE: %[[QSLOT:.*]] = tilegpu.slot %[[QRING]][%[[QAT:.*]]] :
// QSTAGE-NOT: tilegpu.mbarrier_arrive %[[QEMPTY]]
// QSTAGE: tilegpu.barrier_sync %{{.*}}, 256
// QSTAGE-NEXT: tilegpu.local_store matrix %{{.*}}, %[[QSLOT]]
// QSTAGE-NOT: tilegpu.mbarrier_arrive %[[QEMPTY]]
// QSTAGE: tilegpu.tma_store %[[QSLOT]]
// QSTAGE-NEXT: tilegpu.tma_store_wait {pending = 0 : i32}
// QSTAGE-NEXT: tilegpu.mbarrier_arrive %[[QEMPTY]][%[[QAT]]]
// QSTAGEPTX: .entry flash_attention_fwd
// QSTAGEPTX: stmatrix
// QSTAGEPTX: cp.async.bulk.tensor.3d.global.shared::cta

// RANGE: tilec: error: --tile-slots must be 1 or 2, got 3
// NOTPERSISTENT: tilec: error: --tile-slots=2 needs --persistent and --warp-specialize
