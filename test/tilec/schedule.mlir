// Code generation choices for the attention loop, seen in the PTX: K and V
// streamed by cp.async through shared-memory rings, Q read from shared memory
// with ldmatrix.x4 when the schedule keeps it there, launch bounds.

// Defaults at d = 128: aligned rows, three-slot rings, Q in shared memory.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.ptx
// DEFAULT: cp.async.cg.shared.global
// DEFAULT: cp.async.commit_group
// Each wait leaves the younger blocks in flight: (3 - 1) * 2 - 1 = 3.
// DEFAULT: cp.async.wait_group 3;
// DEFAULT-NEXT: bar.sync 0;
// DEFAULT: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// DEFAULT: ldmatrix.sync.aligned.m8n8.x2.shared.b16
// DEFAULT: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// DEFAULT: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16

// The loop body's arithmetic (same PTX): each thread's cp.async chunks of a
// K/V block are whole rows apart (8 rows of 136 elements = 2176 bytes at 128
// threads and d = 128) and go to one slot address plus immediates; ldmatrix
// takes a 32-bit base plus an immediate; exp2 is one ex2.approx.ftz (never the
// subnormal-preserving sequence) fed by s·t − m as one fma.
// RUN: FileCheck %s --check-prefix=BODY < %t.ptx
// BODY: cp.async.cg.shared.global [%r{{[0-9]+}}+2176]
// BODY: ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, [%r{{[0-9]+}}+{{[0-9]+}}];
// BODY: fma.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, 0f3E0293EE, %r{{[0-9]+}};
// BODY: ex2.approx.ftz.f32
// RUN: FileCheck %s --check-prefix=NOSLOWEXP < %t.ptx
// NOSLOWEXP-NOT: ex2.approx.f32

// Q goes to its resident shared-memory area by cp.async (no global loads into
// registers), and the first loop waits for it only after issuing its first
// K/V blocks: (3 - 1) * 2 = 4 younger groups may stay in flight.
// RUN: FileCheck %s --check-prefix=QCOPY < %t.ptx
// QCOPY-NOT: ld.global
// QCOPY: cp.async.cg.shared.global
// QCOPY: cp.async.commit_group
// QCOPY: cp.async.wait_group 4;
// QCOPY-NEXT: bar.sync 0;

// The causal kernel's three loops share one ring: the second and third take
// it over from the one before (no priming barrier), re-priming it only when a
// loop does not start where the ring's blocks do (wait_group 0 under a
// branch, once per handoff); it drains once, after the third.
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=128 --emit=llvm -o %t.causal.mlir
// RUN: FileCheck %s --check-prefix=HANDOFF < %t.causal.mlir
// HANDOFF-COUNT-3: nvvm.cp.async.wait.group 0
// HANDOFF-NOT: nvvm.cp.async.wait.group 0

// Two slots at d = 64: one younger group, (2 - 1) * 2 - 1; and as asked.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=64 --emit=ptx -o %t.s2.ptx
// RUN: FileCheck %s --check-prefix=STAGES2 < %t.s2.ptx
// STAGES2: cp.async.wait_group 1;
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=64 --pipeline-stages=4 --emit=ptx -o %t.s4.ptx
// RUN: FileCheck %s --check-prefix=STAGES4 < %t.s4.ptx
// STAGES4: cp.async.wait_group 5;

// Without streaming (or without aligned rows) K and V go through registers.
// RUN: tilec --kernel=flash_attention_fwd --pipeline-stages=0 --emit=ptx -o %t.s0.ptx
// RUN: FileCheck %s --check-prefix=NOSTREAM < %t.s0.ptx
// RUN: tilec --kernel=flash_attention_fwd --assume-aligned=false --emit=ptx -o %t.general.ptx
// RUN: FileCheck %s --check-prefix=NOSTREAM < %t.general.ptx
// NOSTREAM-NOT: cp.async

// Q in registers at d = 64 unless asked; --a-in-shared=false overrides d = 128.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=64 --emit=ptx -o %t.d64.ptx
// RUN: FileCheck %s --check-prefix=QREGS < %t.d64.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --a-in-shared=false --emit=ptx -o %t.qregs.ptx
// RUN: FileCheck %s --check-prefix=QREGS < %t.qregs.ptx
// QREGS-NOT: ldmatrix.sync.aligned.m8n8.x4
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=64 --a-in-shared --emit=ptx -o %t.qs.ptx
// RUN: FileCheck %s --check-prefix=QSHARED < %t.qs.ptx
// QSHARED: ldmatrix.sync.aligned.m8n8.x4

// Launch bounds, and the limits of the new options.
// RUN: tilec --kernel=flash_attention_fwd --min-blocks-per-sm=2 --emit=ptx -o %t.occ.ptx
// RUN: FileCheck %s --check-prefix=OCC < %t.occ.ptx
// OCC: .reqntid 128, 1, 1
// OCC-NEXT: .minnctapersm 2
// RUN: not tilec --kernel=flash_attention_fwd --min-blocks-per-sm=33 --emit=ptx 2>&1 | FileCheck %s --check-prefix=BADOCC
// BADOCC: tilec: error: --min-blocks-per-sm must be in [0, 32], got 33
// RUN: not tilec --kernel=flash_attention_fwd --pipeline-stages=9 --emit=ptx 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// BADSTAGES: tilec: error: --pipeline-stages must be in [0, 8], got 9
// RUN: echo "module {}" | not tilec-opt --tile-to-llvm="pipeline-stages=-1" 2>&1 | FileCheck %s --check-prefix=PASSSTAGES
// PASSSTAGES: error: pipeline-stages must be in [0, 8], got -1

// The rescale's place by head dim on sm_90a (rescale_at=auto): d = 192
// and the (192, 128) pair rescale O just before the next block's P·V
// (next_pv, sessions 48 and 49), d = 128 right after the softmax. Tile IR
// of auto against each explicit choice.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 -o %t.192.auto.mlir
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set rescale_at=next_pv -o %t.192.next.mlir
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set rescale_at=softmax -o %t.192.soft.mlir
// RUN: diff %t.192.auto.mlir %t.192.next.mlir
// RUN: not diff %t.192.auto.mlir %t.192.soft.mlir > /dev/null
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set head_dim_v=128 -o %t.v128.auto.mlir
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set head_dim_v=128 --set rescale_at=next_pv -o %t.v128.next.mlir
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set head_dim_v=128 --set rescale_at=softmax -o %t.v128.soft.mlir
// RUN: diff %t.v128.auto.mlir %t.v128.next.mlir
// RUN: not diff %t.v128.auto.mlir %t.v128.soft.mlir > /dev/null
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 -o %t.128.auto.mlir
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --set rescale_at=softmax -o %t.128.soft.mlir
// RUN: diff %t.128.auto.mlir %t.128.soft.mlir
