// --emit=gpu prints tilegpu IR that tilec compiles again: with the options
// --print-pipeline resolves, the PTX of the printed IR is the PTX of the
// kernel, byte for byte (sm_80 and sm_90a, attention defaults with wgmma,
// Q in shared memory, row groups and streamed K/V; a tile-IR file).
// The persistent grid (the d = 128 default) too: its printed IR already ends
// in the grid's three arguments, which are not parameters the second time.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=ptx -o %t.pers.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=gpu -o %t.pers.gpu.mlir
// RUN: tilec %t.pers.gpu.mlir --arch=sm_90a --emit=ptx -o %t.pers.again.ptx
// RUN: cmp %t.pers.ptx %t.pers.again.ptx
// RUN: FileCheck %s --check-prefix=PERS < %t.pers.again.json
// The causal one too (persistent by default since session 31: its query
// blocks longest first, heads in sections):
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=128 --arch=sm_90a --emit=ptx -o %t.pc.ptx
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=128 --arch=sm_90a --emit=gpu -o %t.pc.gpu.mlir
// RUN: tilec %t.pc.gpu.mlir --arch=sm_90a --emit=ptx -o %t.pc.again.ptx
// RUN: cmp %t.pc.ptx %t.pc.again.ptx
// RUN: FileCheck %s --check-prefix=PERS < %t.pc.again.json
// PERS: "persistent": true,
// PERS: {"name":"arg0","kind":"tensor"
// PERS: {"name":"arg28","kind":"tensor","dtype":"f32","rank":2,
// PERS-NEXT: ],
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --persistent=false --emit=ptx -o %t.d128.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --persistent=false --emit=gpu -o %t.d128.gpu.mlir
// RUN: tilec %t.d128.gpu.mlir --arch=sm_90a --a-in-shared --assume-aligned --pipeline-stages=2 --emit=ptx -o %t.d128.again.ptx
// RUN: cmp %t.d128.ptx %t.d128.again.ptx
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_80 --emit=ptx -o %t.causal.ptx
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_80 --emit=gpu -o %t.causal.gpu.mlir
// RUN: tilec %t.causal.gpu.mlir --arch=sm_80 --assume-aligned --emit=ptx -o %t.causal.again.ptx
// RUN: cmp %t.causal.ptx %t.causal.again.ptx
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=ptx -o %t.file.ptx
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=gpu -o %t.file.gpu.mlir
// RUN: tilec %t.file.gpu.mlir --arch=sm_90a --emit=ptx -o %t.file.again.ptx
// RUN: cmp %t.file.ptx %t.file.again.ptx
// The printed IR is tilegpu IR: layouts in the types, conversions as ops.
// RUN: FileCheck %s < %t.d128.gpu.mlir
// CHECK: #linear = #tilegpu.linear<
// CHECK: tilegpu.convert_layout
// CHECK: tile.dot {{.*}}, #linear{{[0-9]*}}>
// CHECK-NOT: tilegpu.layouts
