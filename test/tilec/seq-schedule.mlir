// seq_schedule=long: the forward's schedule for long sequences where it
// differs from the default. At d = 64 without a mask on sm_90a: 256-row
// tiles on 16 warps (the grid divides the queries by 256); elsewhere the
// default's kernel, byte for byte.

// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set seq_schedule=long --emit=ptx -o %t.long.ptx
// RUN: FileCheck %s --check-prefix=LONG < %t.long.ptx
// RUN: FileCheck %s --check-prefix=LONGMETA < %t.long.json
// LONG: .reqntid 512, 1, 1
// LONGMETA: "num_warps": 16
// LONGMETA: {"param":"q","axis":1,"divisor":256}
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --emit=ptx -o %t.auto.ptx
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto.ptx
// AUTO: .reqntid 256, 1, 1

// Causal (256-row tiles measured slower), d = 128 and sm_80 keep their one
// schedule.
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set seq_schedule=long --emit=ptx -o %t.c1.ptx
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --emit=ptx -o %t.c2.ptx
// RUN: cmp %t.c1.ptx %t.c2.ptx
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set seq_schedule=long --emit=ptx -o %t.d1.ptx
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --emit=ptx -o %t.d2.ptx
// RUN: cmp %t.d1.ptx %t.d2.ptx
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --set seq_schedule=long --emit=ptx -o %t.s1.ptx
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --emit=ptx -o %t.s2.ptx
// RUN: cmp %t.s1.ptx %t.s2.ptx

// Tile sizes given on the command line win over it.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set seq_schedule=long --set block_m=128 --emit=ptx -o %t.m.ptx
// RUN: cmp %t.m.ptx %t.auto.ptx

// The CPU run of the long schedule against the reference, ragged.
// RUN: tilec --kernel=flash_attention_fwd --set seq_schedule=long --run=cpu --size seq_q=300 --size seq_k=333 | FileCheck %s --check-prefix=CPU
// CPU: o {{.*}}: ok
// CPU: lse {{.*}}: ok

// Only the forward takes it, and only its two values.
// RUN: not tilec --kernel=flash_attention_fwd --set seq_schedule=short 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: 'seq_schedule' expects one of auto, long, got 'short'
// RUN: not tilec --kernel=flash_attention_bwd_fused --set seq_schedule=long 2>&1 | FileCheck %s --check-prefix=BWD
// BWD: unknown parameter 'seq_schedule'
