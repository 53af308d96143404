// The fused attention backward: dK, dV per key block and each query
// block's share of dQ added atomically into an f32 accumulator (one pass
// over the scores); its last step rounds the accumulator to dQ and zeroes
// it for the next backward. Checked on
// the CPU against the double-precision gradients (dq_acc against dQ), for a
// mask from a runtime tensor with shuffled ids (block lists) too, and
// lowered to predicated red.global.add.f32 (sm_80, and the tilegpu
// lowering without TMA), by tile-to-llvm on sm_90a to rows through shared
// memory and one cp.reduce.async.bulk per row (aligned: no red.global
// fallback), and by default on sm_90a at d = 64 in FlashAttention-3's
// shape, 128 query rows a step with the scores as [queries, keys]: P and
// dS stored by stmatrix for dV's and dK's dots (read from shared memory
// transposed: the descriptor's tnspA), each step's dQ share a wgmma with
// dS as A straight from the registers, staged in shared memory and added
// by TMA reductions, one per 128-byte column block (TMA drops the rows
// past the tensor).
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --run=cpu --size batch=2 --size seq_q=130 --size seq_k=77 | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_fused_document --set shuffled=1 --run=cpu --size batch=2 --size seq_q=130 --size seq_k=130 | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_dq_convert --set dtype=f16 --run=cpu | FileCheck %s --check-prefix=CONVERT
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --lowering=tile-to-llvm --emit=ptx -o %t.ptx && FileCheck %s --check-prefix=BULK < %t.ptx && FileCheck %s --check-prefix=META < %t.json
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --emit=ptx -o %t.fa3.ptx && FileCheck %s --check-prefix=TMARED < %t.fa3.ptx && FileCheck %s --check-prefix=TMAMAP < %t.fa3.json
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --lowering=tilegpu --tma=false --warp-specialize=false --emit=ptx -o %t.tg.ptx && FileCheck %s --check-prefix=PTX < %t.tg.ptx
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_80 --emit=ptx -o %t.80.ptx && FileCheck %s --check-prefix=PTX < %t.80.ptx
// A GPU case of it says its outputs are not bitwise repeatable
// (tilec-run-case --repeatable checks a second launch against the
// reference instead); the dK/dV kernel's cases do not.
// RUN: rm -rf %t.case %t.kv && tilec --kernel=flash_attention_bwd_fused --export-case=%t.case && FileCheck %s --check-prefix=CASE < %t.case/case.json
// RUN: tilec --kernel=flash_attention_bwd_dkdv --export-case=%t.kv && FileCheck %s --check-prefix=KVCASE < %t.kv/case.json

// CPU: dk {{.*}}: ok
// CPU: dv {{.*}}: ok
// CPU: dq_acc {{.*}}: ok
// CONVERT: dq_acc {{.*}} max |error| 0, {{.*}}: ok
// CONVERT: dq {{.*}} max |error| 0, {{.*}}: ok

// PTX: .entry flash_attention_bwd_fused(
// PTX: @%p{{[0-9]+}} red.global.add.f32 [%rd{{[0-9]+}}], %r{{[0-9]+}};
// PTX-NOT: atom.global

// BULK: .entry flash_attention_bwd_fused(
// BULK-NOT: red.global.add
// BULK: fence.proxy.async.shared::cta;
// BULK: bar.sync 0;
// BULK: @%p{{[0-9]+}} cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd{{[0-9]+}}], [%r{{[0-9]+}}], n;
// BULK: cp.async.bulk.wait_group.read 0;
// BULK-NOT: red.global.add

// META: {"name":"dq_acc","kind":"tensor","dtype":"f32","rank":3

// TMARED: .entry flash_attention_bwd_fused(
// TMARED-NOT: red.global.add
// TMARED: stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r{{[0-9]+}}], {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}};
// TMARED: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, p, 1,  1, 1,  1;
// TMARED: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// TMARED: fence.proxy.async.shared::cta;
// TMARED-NEXT: bar.sync 2, 256;
// TMARED: cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// TMARED-NEXT: add.s32
// TMARED-NEXT: mov.b32
// TMARED-NEXT: cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.tile.bulk_group
// TMARED: cp.async.bulk.wait_group.read 0;
// TMARED-NOT: red.global.add
// TMAMAP: "num_warps": 8,
// TMAMAP-NEXT: "threads_per_block": 384,
// TMAMAP: {"param":"dq_acc","box":[1,128,32],"swizzle":128}
// --f32-staging-bytes=32: dQ's share stages in 32-byte column blocks, one
// TMA reduction of 8 columns each (the d = 128 kernel: 16 a step).
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 \
// RUN:   --f32-staging-bytes=32 --emit=ptx -o %t.b32.ptx && FileCheck %s --check-prefix=B32 < %t.b32.json
// RUN: grep -c "cp.reduce.async.bulk.tensor" %t.b32.ptx | FileCheck %s --check-prefix=B32RED
// B32: {"param":"dq_acc","box":[1,64,8],"swizzle":32}
// B32RED: 48
// RUN: not tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --f32-staging-bytes=64 \
// RUN:   --emit=ptx -o %t.b64.ptx 2>&1 | FileCheck %s --check-prefix=B64
// B64: f32-staging-bytes must be 128 or 32, got 64
// How often a d = 128 step's warpgroups meet (consumer_barriers): by default
// (one) only after dSᵀ's store (dSᵀ in two slots by the step's parity), the
// warps that issue no reduction only arriving on barrier 15, where the first
// waits; with two, also after dQ's staging stores. d = 64 keeps two.
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 \
// RUN:   --set consumer_barriers=two --emit=ptx -o - | FileCheck %s --check-prefix=TWO
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 --emit=ptx \
// RUN:   -o - | FileCheck %s --check-prefix=ONE
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set head_dim=128 --emit=ptx \
// RUN:   -o - | FileCheck %s --check-prefix=ONE
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --emit=ptx -o - \
// RUN:   | FileCheck %s --check-prefix=D64 --implicit-check-not="bar.arrive 15"
// TWO: mbarrier.try_wait.parity
// TWO: bar.sync 2, 256;
// TWO-NOT: cp.reduce.async.bulk.tensor
// TWO: bar.sync 2, 256;
// TWO-NEXT: @%p{{[0-9]+}} bra
// TWO: cp.reduce.async.bulk.tensor
// TWO-NOT: bar.arrive
// ONE: mbarrier.try_wait.parity
// ONE: bar.sync 2, 256;
// ONE-NOT: bar.sync 2, 256;
// ONE: bar.arrive 15, 256;
// ONE-NOT: bar.sync 2, 256;
// ONE: bar.sync 15, 256;
// ONE-NOT: bar.sync 2, 256;
// ONE: cp.reduce.async.bulk.tensor
// D64: cp.reduce.async.bulk.tensor

// CASE: "repeatable": false
// KVCASE-NOT: repeatable
