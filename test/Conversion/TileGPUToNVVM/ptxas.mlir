// The NVVM that tilegpu lowers to translates to LLVM IR, compiles to PTX
// for sm_90a and assembles with ptxas: mbarriers with TMA in a producer
// role that gives registers up (12 warps share 168 each), wgmma (A from
// shared memory, then A from registers) in a consumer role that takes
// more, named barriers, a TMA store and a TMA reduction (add), and
// cp.async of a ragged descriptor
// block in a third role.
// REQUIRES: ptxas
// RUN: tilec-opt %s --tilegpu-allocate-shared-memory --convert-tilegpu-to-nvvm \
// RUN:   --convert-scf-to-cf --convert-arith-to-llvm --convert-cf-to-llvm \
// RUN:   --convert-nvvm-to-llvm --reconcile-unrealized-casts -o %t.llvm.mlir
// RUN: mlir-translate --mlir-to-llvmir %t.llvm.mlir -o %t.ll
// RUN: llc -O3 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90a -mattr=+ptx80 %t.ll -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// CHECK: setmaxnreg.dec.sync.aligned.u32 40
// CHECK: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: setmaxnreg.inc.sync.aligned.u32 232
// CHECK: mbarrier.try_wait.parity
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{.*}}}, {%r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}, %r{{[0-9]+}}}, %rd{{[0-9]+}}, p, 1, 1, 1;
// CHECK: wgmma.wait_group.sync.aligned 0
// CHECK: bar.sync 1, 384
// CHECK: cp.async.bulk.tensor.2d.global.shared::cta
// CHECK: cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd{{[0-9]+}}, {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%rd{{[0-9]+}}];
// CHECK: cp.async.bulk.wait_group.read 0
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, {{.*}};
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;

#swz = #tilegpu.swizzled<128>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#wgmmaA = #tilegpu.wgmma_operand<warpgroups = 1>
module {
  llvm.func @kernel(%map_ptr: !llvm.ptr {llvm.byval = !llvm.array<128 x i8>, llvm.align = 64 : i64, nvvm.grid_constant},
                    %global: !llvm.ptr<1>, %rows: i32)
      attributes {nvvm.kernel, nvvm.reqntid = array<i32: 384>, nvvm.minctasm = 1 : i32} {
    %map = builtin.unrealized_conversion_cast %map_ptr : !llvm.ptr to !tilegpu.tensor_map<64x64xbf16, #swz>
    %gp = builtin.unrealized_conversion_cast %global : !llvm.ptr<1> to !tile.ptr<bf16>
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #wgmma>
    %a = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
    %b = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #swz>
    %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
    %staged = tilegpu.alloc : !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
    tilegpu.warp_specialize
      role warps = 4 registers = 40 {
        %t = nvvm.read.ptx.sreg.tid.x : i32
        %first = arith.cmpi eq, %t, %c0 : i32
        scf.if %first {
          tilegpu.mbarrier_arrive %full[%c0] expect_tx 16384 : !tilegpu.mbarrier<1>
        }
        tilegpu.tma_load %map[%c0, %c0], %a, %full[%c0]
            : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
        tilegpu.tma_load %map[%c0, %c0], %b, %full[%c0]
            : !tilegpu.tensor_map<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.mbarrier<1>
        tilegpu.barrier_arrive %c1, 384
      }
      role warps = 4 registers = 232 {
        tilegpu.mbarrier_wait %full[%c0], %c0 : !tilegpu.mbarrier<1>
        %tok = tilegpu.warpgroup_dot %a, %b, %zero transpose_b
            : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %s = tilegpu.dot_wait %tok {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        // A second dot with A in registers (inline PTX), accumulating on S.
        %p = arith.constant dense<1.0> : tensor<64x64xbf16, #wgmmaA>
        %tok2 = tilegpu.warpgroup_dot %p, %b, %s
            : tensor<64x64xbf16, #wgmmaA>, !tilegpu.smem<64x64xbf16, #swz>, tensor<64x64xf32, #wgmma>
        %o = tilegpu.dot_wait %tok2 {pending = 0 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #wgmma>>
        tilegpu.barrier_sync %c1, 384
        tilegpu.fence async_proxy
        tilegpu.tma_store %a, %map[%c0, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<64x64xbf16, #swz>
        tilegpu.tma_store add %b, %map[%c0, %c0] : !tilegpu.smem<64x64xbf16, #swz>, !tilegpu.tensor_map<64x64xbf16, #swz>
        tilegpu.tma_store_wait {pending = 0 : i32}
      }
      role warps = 4 registers = 232 {
        // cp.async of a ragged block (rows past the tensor zero-filled).
        %c64 = arith.constant 64 : i32
        %s1 = arith.constant 1 : i64
        %s64 = arith.constant 64 : i64
        %d = tile.make_desc %gp, [%rows, %c64], [%s64, %s1] : !tile.ptr<bf16> -> !tile.desc<16x64xbf16>
        %t = tilegpu.async_copy %d[%c0, %c0], %staged : !tile.desc<16x64xbf16>, !tilegpu.smem<16x64xbf16, #tilegpu.padded<16>>
        %g = tilegpu.async_commit_group(%t)
        tilegpu.async_wait %g {pending = 0 : i32}
        tilegpu.barrier_sync %c1, 384
      }
    llvm.return
  }
}
