// One 64x64 tile of C = A·Bᵀ written in tilegpu ops, lowered op by op to
// NVVM: a producer role loads A and B by TMA onto an mbarrier, a consumer
// role waits for the phase, runs wgmma, waits for it, stores the
// accumulators to shared memory and writes C by TMA. scripts/gpu-cases.sh
// writes its PTX and shared-memory size to gpu-cases/tilegpu/ and
// tilegpu-gemm-tile (gemm_tile.cpp) checks it on the GPU against a
// double-precision reference; here it is compiled and assembled.
// REQUIRES: ptxas
// RUN: tilec-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm \
// RUN:   --convert-scf-to-cf --convert-arith-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-nvvm-to-llvm --reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: FileCheck %s --check-prefix=SMEM < %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.ll -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// A and B at 0 and 8192 (1024-aligned), C at 16384, the mbarrier after it.
// SMEM: tilegpu.shared_bytes = 32776
// CHECK: .entry kernel(
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: st.shared.v2.b32
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta

#swz = #tilegpu.swizzled<128>
#plain = #tilegpu.padded<0>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
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
        tilegpu.local_store %s, %c : tensor<64x64xf32, #wgmma>, !tilegpu.smem<64x64xf32, #plain>
        tilegpu.fence async_proxy
        tilegpu.barrier_sync %c1, 128
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
