// Attention's two dots on one 64x64 tile, in tilegpu ops: S = A·Bᵀ (wgmma,
// both from shared memory), P = bf16(S) in registers, moved to wgmma's A
// fragment within threads, O = P·B (wgmma with A in registers, B read as V:
// K x N, MN-major), and C = O / rowmax(S) (a row reduction with shuffles,
// broadcast back onto the rows). Loads, roles and the store as in gemm_tile.mlir, but
// the synchronization before the store is left to tilegpu-insert-barriers.
// scripts/gpu-cases.sh writes its PTX to gpu-cases/tilegpu/ and
// `tilegpu-gemm-tile --pv` checks it on the GPU; here it is compiled and
// assembled.
// REQUIRES: ptxas
// RUN: tilec-opt %s --tilegpu-insert-barriers | FileCheck %s --check-prefix=PLACED
// RUN: tilec-opt %s --tilegpu-insert-barriers --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm \
// RUN:   --convert-scf-to-cf --convert-arith-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-nvvm-to-llvm --reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=SMEM < %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.ll -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// The consumer's stores of C are fenced and published (named barrier 2,
// its 128 threads) before the branch that TMA-stores C.
// PLACED: tilegpu.local_store
// PLACED: tilegpu.fence async_proxy
// PLACED-NEXT: %[[ID:.+]] = arith.constant 2 : i32
// PLACED-NEXT: tilegpu.barrier_sync %[[ID]], 128
// PLACED-NEXT: scf.if
// PLACED-NEXT: tilegpu.tma_store
// A and B at 0 and 8192 (1024-aligned), C at 16384, the mbarrier after it.
// SMEM: tilegpu.shared_bytes = 32776
// CHECK: .entry kernel(
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: cvt.rn.bf16x2.f32
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: shfl.sync.bfly.b32
// CHECK: div.rn.f32
// CHECK: st.shared.v2.b32
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta

#swz = #tilegpu.swizzled<128>
#plain = #tilegpu.padded<0>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
#rows = #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32]]>
#rows2 = #tilegpu.linear<reg = [[8, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]>
module {
  llvm.func @kernel(%a_param: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant},
                    %b_param: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant},
                    %c_param: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant})
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 256>, nvvm.minctasm = 1 : i32} {
    %amap = builtin.unrealized_conversion_cast %a_param : !llvm.ptr to !tilegpu.tensor_map<64x64xbf16, #swz>
    %bmap = builtin.unrealized_conversion_cast %b_param : !llvm.ptr to !tilegpu.tensor_map<64x64xbf16, #swz>
    %cmap = builtin.unrealized_conversion_cast %c_param : !llvm.ptr to !tilegpu.tensor_map<64x64xf32, #plain>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %c160 = arith.constant 160 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #wgmma>
    %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
    %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
    %c = tilegpu.alloc : !tilegpu.smem<64x64xf32, #plain>
    %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
    tilegpu.warp_specialize
      role warps = 4 registers = 40 {
        // Warp 0 announces the 2 x 8192 bytes and issues both boxes.
        %tid = nvvm.read.ptx.sreg.tid.x : i32
        %warp0 = arith.cmpi ult, %tid, %c32 : i32
        scf.if %warp0 {
          %thread0 = arith.cmpi eq, %tid, %c0 : i32
          scf.if %thread0 {
            tilegpu.mbarrier_arrive %full[%c0] expect_tx 16384 : !tilegpu.mbarrier<1>
          }
          tilegpu.tma_load %amap[%c0, %c0], %a, %full[%c0]
              : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
          tilegpu.tma_load %bmap[%c0, %c0], %b, %full[%c0]
              : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
        }
      }
      role warps = 4 registers = 232 {
        tilegpu.mbarrier_wait %full[%c0], %c0 : !tilegpu.mbarrier<1>
        %tok = tilegpu.warpgroup_dot %a, %b, %zero transpose_b
            : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %s = tilegpu.dot_wait %tok {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        %sb = arith.truncf %s : tensor<64x64xf32, #wgmma> to tensor<64x64xbf16, #wgmma>
        %p = tilegpu.convert_layout %sb : tensor<64x64xbf16, #wgmma> -> tensor<64x64xbf16, #wgmmaA>
        %tok2 = tilegpu.warpgroup_dot %p, %b, %zero
            : tensor<64x64xbf16, #wgmmaA>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %o = tilegpu.dot_wait %tok2 {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        // Each row divided by the row's maximum of S (a reduction within
        // warps, broadcast back onto the accumulator within threads).
        %max = tile.reduce max %s axis = 1 : tensor<64x64xf32, #wgmma> -> tensor<64xf32, #rows>
        %max2 = tile.expand_dims %max axis = 1 : tensor<64xf32, #rows> -> tensor<64x1xf32, #rows2>
        %maxb = tile.broadcast %max2 : tensor<64x1xf32, #rows2> -> tensor<64x64xf32, #wgmma>
        %on = arith.divf %o, %maxb : tensor<64x64xf32, #wgmma>
        tilegpu.local_store %on, %c : tensor<64x64xf32, #wgmma>, !tilegpu.smem<64x64xf32, #plain>
        // (tilegpu-insert-barriers fences these stores for the TMA store and
        // puts the role's named barrier here.)
        // The first consumer warp writes C.
        %tid = nvvm.read.ptx.sreg.tid.x : i32
        %warp4 = arith.cmpi ult, %tid, %c160 : i32
        scf.if %warp4 {
          tilegpu.tma_store %c, %cmap[%c0, %c0] : !tilegpu.smem<64x64xf32, #plain>, !tilegpu.tensor_map<64x64xf32, #plain>
          tilegpu.tma_store_wait {pending = 0 : i32}
        }
      }
    llvm.return
  }
}
