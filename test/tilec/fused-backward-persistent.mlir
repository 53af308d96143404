// The fused backward on a persistent grid. Causal at d = 64 on sm_90a runs
// as one by default, its programs claiming (key block, head) tiles from a
// counter (measured faster, bench/RESULTS.md session 43); the same PTX as
// asking for it. Dense, d = 128, sm_80, and given tiles or another dQ
// conversion keep one program a tile.
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --emit=ptx -o %t.default.ptx
// RUN: FileCheck %s --check-prefix=COUNTER < %t.default.json
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --persistent --tile-counter --emit=ptx -o %t.asked.ptx
// RUN: cmp %t.default.ptx %t.asked.ptx
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --emit=ptx -o %t.dense.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.dense.json
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.d128.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.d128.json
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_80 --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.sm80.json
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set dq_convert=last_program --emit=ptx -o %t.lp.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.lp.json
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --persistent=false --emit=ptx -o %t.off.ptx
// RUN: FileCheck %s --check-prefix=ONE < %t.off.json
//
// Persistent, its buffers fit (the tile loop's body is a timeline of its
// own to tilegpu-allocate-shared-memory: 297984 bytes without) and every
// write goes by TMA (dQ's adds in the key loops, dK and dV at each tile's
// end), in the static order too:
// RUN: rm -rf %t.dump
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --persistent --emit=ptx -o %t.static.ptx --dump-ir-dir=%t.dump
// RUN: FileCheck %s --check-prefix=STATIC < %t.static.json
// RUN: cat %t.dump/*/*_tilegpu-tma-stores.mlir | FileCheck %s --check-prefix=TMA
// RUN: FileCheck %s --check-prefix=PTX < %t.static.ptx

// COUNTER: "shared_bytes": 232448,
// COUNTER-NEXT: "persistent": true,
// COUNTER-NEXT: "tile_counter": true,
// ONE-NOT: "persistent"
// STATIC: "shared_bytes": 232448,
// STATIC-NEXT: "persistent": true,
// STATIC-NOT: tile_counter
// TMA: scf.for
// TMA: scf.for
// TMA: tilegpu.tma_store add
// TMA: tilegpu.tma_store %
// TMA: tilegpu.tma_store %
// TMA-NOT: tile.store_block
// TMA-NOT: tile.atomic_add_block
// PTX-NOT: red.global.add
