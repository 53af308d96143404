//===- TileTypes.td - types of the tile dialect ------------*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILE_TILETYPES_TD
#define TILEC_DIALECT_TILE_TILETYPES_TD

include "TileBase.td"

class Tile_Type<string name, string typeMnemonic> : TypeDef<Tile_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def Tile_PointerType : Tile_Type<"Pointer", "ptr"> {
  let summary = "pointer to an element in global memory";
  let description = [{
    The address of one element of type `pointeeType` in global memory. A tensor
    of pointers (`tensor<128x!tile.ptr<f32>>`) addresses a whole tile.

    Example: `!tile.ptr<bf16>`
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
}

def Tile_TensorDescType : Tile_Type<"TensorDesc", "desc"> {
  let summary = "descriptor of a strided global tensor, moved one block at a time";
  let description = [{
    A tensor descriptor names a global tensor (base pointer, runtime shape and
    strides, all made by `tile.make_desc`) together with the static shape of
    the block that `tile.load_block` and `tile.store_block` move. On sm_90a it
    becomes a TMA tensor map whose box is the block shape.

    Example: `!tile.desc<64x128xbf16>` moves 64x128 blocks of bf16.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$blockShape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The tensor type of one block: what a block load returns.
    ::mlir::RankedTensorType getBlockType() const;
    unsigned getRank() const { return getBlockShape().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints used by the ops
//===----------------------------------------------------------------------===//

def Tile_Scalar : AnyTypeOf<[AnyInteger, AnyFloat]>;
def Tile_Tensor : RankedTensorOf<[AnyInteger, AnyFloat]>;
def Tile_Value : AnyTypeOf<[Tile_Scalar, Tile_Tensor]>;
def Tile_I32Tensor : RankedTensorOf<[I32]>;
def Tile_BoolTensor : RankedTensorOf<[I1]>;
def Tile_PtrTensor : RankedTensorOf<[Tile_PointerType]>;
def Tile_PtrLike : AnyTypeOf<[Tile_PointerType, Tile_PtrTensor]>;
def Tile_IntLike : AnyTypeOf<[AnyInteger, RankedTensorOf<[AnyInteger]>]>;
def Tile_F32Tensor : RankedTensorOf<[F32]>;

#endif // TILEC_DIALECT_TILE_TILETYPES_TD
