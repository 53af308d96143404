// The backward's default schedules on sm_90a, seen in the launch metadata
// (bench/RESULTS.md, session 16): dQ's K and V rings are filled by TMA at
// d = 64, and at d = 128 without a mask on 128x128 tiles over two
// warpgroups (8 warps); a mask at d = 128 and packed batches keep cp.async
// rings (no tensor maps) on 4 warps. A score modifier's dQ takes TMA rings
// at both, its dK/dV at d = 128 only (then with 32 query rows per step).
// dK/dV at d = 128 without a modifier or block lists takes
// FlashAttention-3's shape: 128 keys per program on 8 warps, Q and dO by
// TMA, 64 query rows per step; masks (built as [keys, queries]) and GQA
// (the group's heads in one loop over (block, head) pairs) included.
// So does the fused kernel (its dQ added by TMA reductions into dq_acc; at
// d = 128 each step's dQ dot comes before dK's, DQFIRST; at d = 64 with 128
// query rows per step, FUSED64); packed batches
// keep 64 keys on 4 warps. A producer warpgroup fills the
// rings (384 threads), except beside the sliding window, whose consumers
// issue their TMA copies themselves (256).
// RUN: tilec --kernel=flash_attention_bwd_dkdv --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kv.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER < %t.kv.json
// RUN: FileCheck %s --check-prefix=SETMAXNREG < %t.kv.ptx
// SETMAXNREG-DAG: setmaxnreg.dec.sync.aligned.u32 24
// SETMAXNREG-DAG: setmaxnreg.inc.sync.aligned.u32 240
// Unmasked steps take the scores' scale and the row's lse in one FFMA
// (lseByFma: s·c − lse contracted), the same in dQ; masked steps mask
// between the two.
// RUN: FileCheck %s --check-prefix=FMA < %t.kv.ptx
// RUN: tilec --kernel=flash_attention_bwd_dq --arch=sm_90a --set head_dim=64 --emit=ptx -o - | FileCheck %s --check-prefix=FMA
// (c = log2(e)/sqrt(d): 0f3E0293EE at d = 128, 0f3E38AA3B at 64)
// FMA: fma.rn.f32 {{.+}}, {{0f3E0293EE|0f3E38AA3B}}, {{.+}};
// KV8: "num_warps": 8
// PRODUCER-NEXT: "threads_per_block": 384
// SELF-NEXT: "threads_per_block": 256
// KV8: {"param":"k","axis":1,"divisor":128}
// KV8: "tensor_maps": [
// KV8-NEXT: {"param":"q","box":[1,64,64],"swizzle":128},
// KV8-NEXT: {"param":"do","box":[1,64,64],"swizzle":128}
// RUN: tilec --kernel=flash_attention_bwd_dkdv_causal --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kvcausal.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER < %t.kvcausal.json
// RUN: FileCheck %s --check-prefix=SETMAXNREG < %t.kvcausal.ptx
// RUN: tilec --kernel=flash_attention_bwd_dkdv_sliding_window --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kvwindow.ptx
// RUN: FileCheck %s --check-prefixes=KV8,SELF < %t.kvwindow.json
// At d = 64 every such dK/dV kernel has the producer warpgroup.
// RUN: tilec --kernel=flash_attention_bwd_dkdv_causal --arch=sm_90a --set head_dim=64 --emit=ptx -o %t.kv64.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER < %t.kv64.json
// RUN: tilec --kernel=flash_attention_bwd_dkdv_gqa --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kvgqa.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER < %t.kvgqa.json
// The same schedules run by the interpreter: the pair loop over 3 heads
// of a group and the transposed masks over several key blocks, ragged.
// RUN: tilec --kernel=flash_attention_bwd_dkdv_gqa --arch=sm_90a --set head_dim=128 --set group=3 --size heads=6 --size seq_q=150 --size seq_k=200 --run=cpu | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_dkdv_sliding_window --arch=sm_90a --set head_dim=128 --size seq_q=150 --size seq_k=300 --run=cpu | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_dkdv_prefix_lm --arch=sm_90a --set head_dim=128 --size seq_q=200 --size seq_k=150 --run=cpu | FileCheck %s --check-prefix=CPU
// CPU: dk {{.*}}: ok
// CPU: dv {{.*}}: ok
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set head_dim=64 --emit=ptx -o %t.kvfused64.ptx
// RUN: FileCheck %s --check-prefix=FUSED64 < %t.kvfused64.json
// score_layout=keys_by_queries: 64 transposed rows a step.
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --arch=sm_90a --set head_dim=64 --set score_layout=keys_by_queries --emit=ptx -o %t.kvfusedkq64.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER,FUSED < %t.kvfusedkq64.json
// FUSED64: "num_warps": 8
// FUSED64-NEXT: "threads_per_block": 384
// FUSED64: {"param":"k","axis":1,"divisor":128}
// FUSED64: "tensor_maps": [
// FUSED64-NEXT: {"param":"q","box":[1,128,64],"swizzle":128},
// FUSED64-NEXT: {"param":"do","box":[1,128,64],"swizzle":128}
// FUSED64: {"param":"dq_acc","box":[1,128,32],"swizzle":128}
// FUSED: {"param":"dq_acc","box":[1,64,32],"swizzle":128}
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kvfused.ptx
// RUN: FileCheck %s --check-prefixes=KV8,PRODUCER,FUSED < %t.kvfused.json
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 --emit=tile | FileCheck %s --check-prefix=DQFIRST
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=64 --emit=tile | FileCheck %s --check-prefix=DKFIRST
// In each of the three query loops the step ends with dK's dot (dSᵀ·Q on
// the loop's accumulator) after dQ's share is added at d = 128, before it
// at d = 64.
// DQFIRST: tile.atomic_add_block
// DQFIRST-NEXT: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DQFIRST-NEXT: scf.yield
// DQFIRST: tile.atomic_add_block
// DQFIRST-NEXT: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DQFIRST-NEXT: scf.yield
// DQFIRST: tile.atomic_add_block
// DQFIRST-NEXT: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DQFIRST-NEXT: scf.yield
// DKFIRST: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DKFIRST: tile.atomic_add_block
// DKFIRST-NEXT: scf.yield
// DKFIRST: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DKFIRST: tile.atomic_add_block
// DKFIRST-NEXT: scf.yield
// DKFIRST: tile.dot {{.*}}, %arg{{[0-9]+}} :
// DKFIRST: tile.atomic_add_block
// DKFIRST-NEXT: scf.yield
// RUN: tilec --kernel=flash_attention_varlen_bwd_dkdv --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.kvvarlen.ptx
// RUN: FileCheck %s --check-prefix=RINGS < %t.kvvarlen.json
// RUN: tilec --kernel=flash_attention_bwd_dq --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.d128.ptx
// RUN: FileCheck %s --check-prefix=TMA8 < %t.d128.json
// RUN: tilec --kernel=flash_attention_bwd_dq_gqa --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.gqa.ptx
// RUN: FileCheck %s --check-prefix=TMA8 < %t.gqa.json
// TMA8: "num_warps": 8
// TMA8: {"param":"q","axis":1,"divisor":128}
// TMA8: "tensor_maps": [
// TMA8-NEXT: {"param":"k","box":[1,128,64],"swizzle":128},
// TMA8-NEXT: {"param":"v","box":[1,128,64],"swizzle":128}
// RUN: tilec --kernel=flash_attention_bwd_dq_causal --arch=sm_90a --set head_dim=64 --emit=ptx -o %t.d64.ptx
// RUN: FileCheck %s --check-prefix=TMA4 < %t.d64.json
// TMA4: "num_warps": 4
// TMA4: "tensor_maps"
// RUN: tilec --kernel=flash_attention_bwd_dq_causal --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.causal.ptx
// RUN: FileCheck %s --check-prefix=RINGS < %t.causal.json
// RUN: tilec --kernel=flash_attention_bwd_dkdv_softcap --arch=sm_90a --emit=ptx -o %t.softcap.ptx
// RUN: FileCheck %s --check-prefix=RINGS < %t.softcap.json
// RUN: tilec --kernel=flash_attention_bwd_dq_softcap --arch=sm_90a --emit=ptx -o %t.dqsoftcap.ptx
// RUN: FileCheck %s --check-prefix=TMA4 < %t.dqsoftcap.json
// RUN: tilec --kernel=flash_attention_bwd_dkdv_alibi --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.alibi.ptx
// RUN: FileCheck %s --check-prefix=TMA4 < %t.alibi.json
// RUN: tilec --kernel=flash_attention_bwd_fused_softcap --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.fused.ptx
// RUN: FileCheck %s --check-prefix=RINGS < %t.fused.json
// RUN: tilec --kernel=flash_attention_varlen_bwd_dq --arch=sm_90a --emit=ptx -o %t.varlen.ptx
// RUN: FileCheck %s --check-prefix=RINGS < %t.varlen.json
// RINGS: "num_warps": 4
// RINGS-NOT: tensor_maps
// Where a d = 128 step reads its queries' lse and delta (statistics): by
// default dK/dV's each where it is used (lse after the scores' dots: the
// consumers fit 240 registers), the fused kernel's lse before them (its
// load under the dots) and delta before the exponentials (lse_top);
// step_top both before the dots.
// RUN: tilec --kernel=flash_attention_bwd_dkdv --arch=sm_90a --set head_dim=128 --emit=tile | FileCheck %s --check-prefix=AT_USE
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 --set statistics=at_use --emit=tile | FileCheck %s --check-prefix=AT_USE
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set head_dim=128 --emit=tile | FileCheck %s --check-prefix=LSE_TOP
// RUN: tilec --kernel=flash_attention_bwd_dkdv --arch=sm_90a --set head_dim=128 --set statistics=step_top --emit=tile | FileCheck %s --check-prefix=STEP_TOP
// AT_USE: scf.for
// AT_USE-NOT: tile.load_block {{.*}} -> tensor<1x64xf32>
// AT_USE: tile.dot
// AT_USE: tile.dot
// AT_USE: tile.load_block {{.*}} -> tensor<1x64xf32>
// AT_USE: math.exp2
// AT_USE: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP: scf.for
// LSE_TOP-NOT: tile.dot
// LSE_TOP: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP-NOT: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP: tile.dot
// LSE_TOP-NOT: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP-NOT: tile.load_block {{.*}} -> tensor<1x64xf32>
// LSE_TOP: math.exp2
// STEP_TOP: scf.for
// STEP_TOP-NOT: tile.dot
// STEP_TOP: tile.load_block {{.*}} -> tensor<1x64xf32>
// STEP_TOP-NOT: tile.dot
// STEP_TOP: tile.load_block {{.*}} -> tensor<1x64xf32>
// STEP_TOP: tile.dot
