//===- TileBase.td - the tile dialect, its enums and constraints -*- tablegen -*-===//
//
// The `tile` dialect is tilec's user-facing IR: layout-free tiles as ranked
// tensors, global pointers and tensor descriptors, and the handful of block-level
// operations that a FlashAttention-style kernel needs. Nothing here mentions
// threads, warps, shared memory or instructions; that belongs to the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TILEBASE_TD
#define TILEC_DIALECT_TILE_TILEBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::tilec::tile";
  let summary = "Layout-free tile programs: one program instance computes one block";
  let description = [{
    A `tile` program is an SPMD kernel: a grid of program instances runs the same
    function, each one identified by `tile.program_id` and computing one block of
    the output. Values are whole tiles (ranked tensors of small static shape) or
    scalars; the dialect says nothing about how a tile is spread over threads.

    Global memory is reached in two ways:
    * through a tensor descriptor (`!tile.desc`) made by `tile.make_desc` over a
      base pointer, a shape and strides: `tile.load_block` and `tile.store_block`
      move one block at given element offsets; elements outside the shape read
      as the padding value and are not written;
    * through a tensor of pointers (`tile.addptr` on a splatted base pointer):
      `tile.load` and `tile.store` with an optional mask.

    Elementwise arithmetic and math come from `arith` and `math` on tensors,
    control flow from `scf`, kernels are `func.func` ops.
  }];
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Tile_PaddingOption : I32EnumAttr<"PaddingOption",
    "value read for elements outside a descriptor's shape", [
      I32EnumAttrCase<"zero", 0>,
      I32EnumAttrCase<"nan", 1>
    ]> {
  let cppNamespace = "::tilec::tile";
}

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "combining function of tile.reduce", [
      I32EnumAttrCase<"sum", 0>,
      I32EnumAttrCase<"max", 1>,
      I32EnumAttrCase<"min", 2>
    ]> {
  let cppNamespace = "::tilec::tile";
}

#endif // TILEC_DIALECT_TILE_TILEBASE_TD
