// --lowering=tilegpu: the registered matmul kernel through the passes on
// tilegpu IR and the op-by-op conversion to NVVM, to PTX, for both archs;
// tilec-opt reproduces the stage from the recorded target; attention and
// pointer-tensor kernels take the same path.
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: FileCheck %s --check-prefix=META < %t.80.json
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --arch=sm_90a --emit=ptx -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: tilec --kernel=matmul --lowering=tilegpu --emit=ptx -o %t.general.ptx
// RUN: FileCheck %s --check-prefix=GENERAL < %t.general.ptx
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --arch=sm_90a --emit=tile --raw -o %t.tile.mlir
// RUN: tilec-opt %t.tile.mlir --tilec-gpu-pipeline -o %t.opt.mlir
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --arch=sm_90a --emit=llvm -o %t.llvm.mlir
// RUN: diff %t.opt.mlir %t.llvm.mlir
// RUN: tilec --kernel=matmul --lowering=tilegpu --emit=llvm --print-pipeline | FileCheck %s --check-prefix=PRINT
// RUN: tilec --kernel=flash_attention_fwd_causal --lowering=tilegpu --tma=false --arch=sm_90a --emit=ptx -o %t.fa.ptx
// RUN: FileCheck %s --check-prefix=ATTENTION < %t.fa.ptx
// RUN: tilec --kernel=vector_add --lowering=tilegpu --emit=ptx -o %t.va.ptx
// RUN: FileCheck %s --check-prefix=GATHER < %t.va.ptx
// RUN: not tilec --kernel=matmul --lowering=fast --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not tilec --kernel=matmul --lowering=tilegpu --min-blocks-per-sm=2 --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=NOTYET
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --lowering=tilegpu --tma=false --arch=sm_90a --emit=ptx -o %t.q.ptx
// RUN: FileCheck %s --check-prefix=QSHARED < %t.q.ptx
// RUN: FileCheck %s --check-prefix=QVEC --implicit-check-not=ld.global.b16 --implicit-check-not=st.global.b16 < %t.q.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --persistent --emit=ptx -o %t.p.ptx
// RUN: FileCheck %s --check-prefix=PERSIST < %t.p.json
// RUN: FileCheck %s --check-prefix=PERSISTPTX < %t.p.ptx
// The d = 128 forward without a mask is persistent by default on sm_90a
// (bench/RESULTS.md, session 29), and the causal one (session 31), causal
// at d = 112 too (session 38); the sliding window, d = 64 and
// --persistent=false not.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=ptx -o %t.pd.ptx
// RUN: FileCheck %s --check-prefix=PERSIST < %t.pd.json
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=128 --arch=sm_90a --emit=ptx -o %t.pc.ptx
// RUN: FileCheck %s --check-prefix=PERSIST < %t.pc.json
// RUN: tilec --kernel=flash_attention_fwd_sliding_window --set head_dim=128 --arch=sm_90a --emit=ptx -o %t.pw.ptx
// RUN: FileCheck %s --check-prefix=NOTPERSIST < %t.pw.json
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=112 --arch=sm_90a --emit=ptx -o %t.pc112.ptx
// RUN: FileCheck %s --check-prefix=PERSIST < %t.pc112.json
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=64 --arch=sm_90a --emit=ptx -o %t.p64.ptx
// RUN: FileCheck %s --check-prefix=NOTPERSIST < %t.p64.json
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --persistent=false --emit=ptx -o %t.pf.ptx
// RUN: FileCheck %s --check-prefix=NOTPERSIST < %t.pf.json
// NOTPERSIST-NOT: "persistent": true

// sm_80: mma.sync on fragments read from cp.async rings (LLVM rotates the
// loop, so the order is not checked here; test/Dialect/TileGPU checks it).
// SM80: .entry matmul(
// SM80-DAG: cp.async.cg.shared.global
// SM80-DAG: cp.async.wait_group 0
// SM80-DAG: bar.sync 0
// SM80-DAG: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// SM80-NOT: fence.proxy.async
// META: "shared_bytes": 19456,
// META: {"name":"a","kind":"tensor","dtype":"bf16","rank":2,"aligned":true}
// META: {"name":"b","kind":"tensor","dtype":"bf16","rank":2,"aligned":true}
// META: {"name":"c","kind":"tensor","dtype":"f32","rank":2,"aligned":true}
// sm_90a: wgmma with B straight from its swizzled ring slot, A in registers.
// SM90-DAG: cp.async.cg.shared.global
// SM90-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// SM90-DAG: wgmma.wait_group.sync.aligned 0
// SM90-DAG: cp.async.wait_group 0
// SM90-DAG: fence.proxy.async.shared::cta
// Without --assume-aligned: every element loaded by its thread, guarded.
// GENERAL-NOT: cp.async
// GENERAL-DAG: ld.global
// GENERAL-DAG: mma.sync.aligned.m16n8k16
// PRINT: lowering=tilegpu
// Causal attention: Q·Kᵀ with K staged untransposed (transpose_b), P·V with
// P from the accumulators in registers; the masks' cross-thread pieces
// through shared memory.
// ATTENTION-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// ATTENTION-DAG: cp.async.cg.shared.global
// ATTENTION-DAG: ex2.approx.ftz.f32
// GATHER: @%p{{[0-9]+}} ld.global.nc.b32
// GATHER: st.global.b32
// BADNAME: tilec: error: unsupported --lowering 'fast'; accepted: tile-to-llvm, tilegpu
// NOTYET: tilec: error: --lowering=tilegpu does not take --min-blocks-per-sm yet
// d = 128 on sm_90a (a_in_shared by default): Q·Kᵀ reads both operands by
// descriptor (Q stored once before the loops); P·V takes P from registers.
// QSHARED-DAG: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}}, %rd{{[0-9]+}}, %rd{{[0-9]+}}, p
// QSHARED-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd
// Q (and the last V block, read after the loop) come in 16-byte vectors of
// a row per thread, O leaves in 4-byte pairs from the accumulators; no
// element moves alone.
// --persistent: the metadata says so; the grid (three i32) comes after the
// parameters (lse's i64 strides last) and before the tensor maps, of which
// Q's is new (the producer loads each tile's Q; K and V as before), and O's
// (each tile's O leaves by a TMA store, tilegpu-tma-stores).
// PERSIST: "persistent": true,
// PERSIST: "function_args": [{{.*}}"i64","i64","i32","i32","i32","!llvm.ptr","!llvm.ptr","!llvm.ptr","!llvm.ptr"]
// PERSIST-DAG: {"param":"k","box":[1,128,64],"swizzle":128}
// PERSIST-DAG: {"param":"q","box":[1,128,64],"swizzle":128}
// PERSIST-DAG: {"param":"o","box":[1,128,64],"swizzle":128}
// PERSISTPTX: .entry flash_attention_fwd(
// PERSISTPTX: setmaxnreg
// PERSISTPTX: cp.async.bulk.tensor
// QVEC: @%p{{[0-9]+}} ld.global.v4.b32
// QVEC: @%p{{[0-9]+}} st.global.b32
