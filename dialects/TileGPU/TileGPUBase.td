//===- TileGPUBase.td - the tilegpu dialect and its enums --*- tablegen -*-===//
//
// `tilegpu` is the GPU level of tilec: the same tile program, with every tile
// placed on the threads of a block (a distributed layout in its tensor type),
// shared memory as values, asynchronous copies and matrix multiplies whose
// completion is explicit (tokens, commit groups, mbarrier phases), and warp
// roles. Passes plan pipelines, allocation and synchronization on this IR;
// patterns lower it op by op onto the NVVM and LLVM dialects.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::tilec::tilegpu";
  let summary = "Tiles placed on threads, shared memory, async copies and MMAs, warp roles";
  let description = [{
    The GPU level of a tile program. Compared with `tile`:

    * a tile's tensor type carries its **distributed layout** as its encoding
      (`tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>`): which register of
      which lane of which warp holds each element. Every layout is a
      `LinearLayout`; `#tilegpu.linear` spells one out, the other layout
      attributes are shorthands for the common ones;
    * **shared memory** is a value of type `!tilegpu.smem` made by
      `tilegpu.alloc`, possibly with several slots (a ring), in a row layout
      given by its encoding (128-byte swizzle for wgmma and TMA, padded rows
      for ldmatrix);
    * **asynchronous work is explicit**: cp.async copies return tokens that a
      commit group collects and `tilegpu.async_wait` waits for; TMA copies
      complete on mbarriers, waited for with an explicit phase; a
      `tilegpu.warpgroup_dot` returns a token instead of its accumulators and
      only `tilegpu.dot_wait` hands them back, so nothing can read them early;
    * **warp roles**: `tilegpu.warp_specialize` gives each group of warpgroups
      its own region and register budget; named barriers order them.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  // Folded convert_layouts of splat constants become arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::tilec::tile::TileDialect", "::mlir::arith::ArithDialect"];
}

def TileGPU_Fence : I32EnumAttr<"FenceKind", "what a tilegpu.fence orders", [
      I32EnumAttrCase<"async_proxy", 0>,
      I32EnumAttrCase<"mbarrier_init", 1>
    ]> {
  let cppNamespace = "::tilec::tilegpu";
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUBASE_TD
