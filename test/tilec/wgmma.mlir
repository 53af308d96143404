// sm_90a: dots whose B operand is streamed through shared memory run as
// warpgroup MMAs (wgmma.mma_async), reading K, V (and Q when it is resident)
// through 128-byte-swizzle descriptors; sm_80 and --wgmma=false keep mma.sync.

// d = 128 (Q resident, 128x64 tiles in two row groups of 64 by default on
// sm_90a): S = Q·Kᵀ with both operands in shared memory (m64n64k16, no
// transposes), O += P·V with P from registers and V transposed (m64n128k16,
// trans-b 1). Every slot is fenced into the async proxy between its cp.async
// wait and the barrier that publishes it. Each dot is one commit group,
// waited for where its result is first read: both groups' Q·Kᵀ are issued,
// group 0's scores are waited for with one group still running (wait 1), its
// P·V is issued before group 1's scores are waited for (wait 1 again), and
// the iteration ends with everything waited for (wait 0).
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --lowering=tile-to-llvm --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=D128 < %t.ptx
// D128: cp.async.wait_group 1;
// D128-NEXT: // begin inline asm
// D128-NEXT: fence.proxy.async.shared::cta;
// D128-NEXT: // end inline asm
// D128-NEXT: bar.sync 0;
// D128: wgmma.fence.sync.aligned;
// D128: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, da, db, p, 1, 1, 0, 0;
// D128: wgmma.commit_group.sync.aligned;
// D128: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, da, db, p, 1, 1, 0, 0;
// D128: wgmma.commit_group.sync.aligned;
// D128-NOT: wgmma.mma_async
// D128: wgmma.wait_group.sync.aligned 1;
// D128-NOT: wgmma.wait_group
// D128: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, db, p, 1, 1, 1;
// D128: wgmma.commit_group.sync.aligned;
// D128-NOT: wgmma.mma_async
// D128: wgmma.wait_group.sync.aligned 1;
// D128: wgmma.mma_async.sync.aligned.m64n128k16
// D128: wgmma.commit_group.sync.aligned;
// D128-NOT: wgmma.mma_async
// D128: wgmma.wait_group.sync.aligned 0;
// No operand fragment goes through registers by ldmatrix, no mma.sync.
// RUN: FileCheck %s --check-prefix=NOSYNC < %t.ptx
// NOSYNC-NOT: ldmatrix
// NOSYNC-NOT: mma.sync

// Descriptors: 128-byte swizzle (bit 62), stride byte offset 1024 (64 << 32);
// K-major (Q, K) leading offset 16 (1 << 16); V, MN-major with 64 keys per
// block: leading offset = 64 rows of 128 bytes (512 << 16).
// RUN: FileCheck %s --check-prefix=DESC < %t.ptx
// DESC: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293305360384;
// DESC: or.b64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 4611686293338849280;

// d = 64 keeps Q in registers: the A operand of S = Q·Kᵀ comes from them.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=64 --emit=ptx -o %t.d64.ptx
// RUN: FileCheck %s --check-prefix=D64 < %t.d64.ptx
// D64: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, {{db|%rd[0-9]+}}, p, 1, 1, 0;

// mma.sync where wgmma is not wanted or not available.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --wgmma=false --emit=ptx -o %t.sync.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.sync.ptx
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --set head_dim=128 --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.sm80.ptx
// SYNC-NOT: wgmma
// SYNC: mma.sync.aligned.m16n8k16
// SYNC-NOT: wgmma
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_80 --wgmma --emit=ptx 2>&1 | FileCheck %s --check-prefix=BADARCH
// BADARCH: tilec: error: --wgmma needs --arch=sm_90a (got sm_80)

// Eight warps are two warpgroups: not covered by tile-to-llvm, mma.sync.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --num-warps=8 --lowering=tile-to-llvm --emit=ptx -o %t.w8.ptx
// RUN: FileCheck %s --check-prefix=SYNC < %t.w8.ptx

// One row group: each dot's result is read right after it, so it is waited
// for at once.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set row_groups=1 --lowering=tile-to-llvm --emit=ptx -o %t.g1.ptx
// RUN: FileCheck %s --check-prefix=G1 < %t.g1.ptx
// G1-NOT: wgmma.wait_group.sync.aligned 1;
// G1: wgmma.commit_group.sync.aligned;
// G1-NEXT: // end inline asm
// G1-NEXT: // begin inline asm
// G1-NEXT: wgmma.wait_group.sync.aligned 0;
// RUN: not tilec --kernel=flash_attention_fwd --set row_groups=3 --emit=tile 2>&1 | FileCheck %s --check-prefix=BADGROUPS
// BADGROUPS: error: row_groups = 3 must split block_m = 128 into groups of a multiple of 16 rows
