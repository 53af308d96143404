//===- TileGPUTypes.td - shared memory, tokens, barriers, tensor maps -*- tablegen -*-===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUTYPES_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUTYPES_TD

include "TileGPUAttrs.td"

class TileGPU_Type<string name, string typeMnemonic> : TypeDef<TileGPU_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def TileGPU_SharedMemoryType : TileGPU_Type<"SharedMemory", "smem"> {
  let summary = "a buffer in shared memory";
  let description = [{
    A statically shaped buffer of `elementType` in the block's shared memory,
    its rows laid out by `encoding` (`#tilegpu.swizzled` or
    `#tilegpu.padded`). A ring of slots is a buffer whose outermost dimension
    counts the slots; `tilegpu.slot` views one of them. Innermost rows are a
    whole number of 16-byte chunks.

    Example: `!tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>>`, two
    slots of 64x128 bf16.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// One slot: the buffer without its outermost dimension.
    SharedMemoryType getSlotType() const;
    /// Bytes of one row of the innermost dimension, without padding.
    int64_t getRowBytes() const;
    /// Bytes the buffer occupies, padding included.
    int64_t getSizeInBytes() const;
  }];
}

def TileGPU_AsyncTokenType : TileGPU_Type<"AsyncToken", "async_token"> {
  let summary = "completion of cp.async copies or of a commit group";
  let description = [{
    Stands for copies in flight: a `tilegpu.async_copy` returns one, a
    `tilegpu.async_commit_group` collects them into a group (and returns the
    group's token), `tilegpu.async_wait` waits for groups.

    Example: `!tilegpu.async_token`
  }];
}

def TileGPU_DotTokenType : TileGPU_Type<"DotToken", "dot_token"> {
  let summary = "the accumulators of a warpgroup_dot still in flight";
  let description = [{
    The result of an asynchronous `tilegpu.warpgroup_dot`: its accumulators,
    of type `valueType`, not readable until `tilegpu.dot_wait` returns them.

    Example: `!tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>`
  }];
  let parameters = (ins "::mlir::RankedTensorType":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
}

def TileGPU_MBarrierType : TileGPU_Type<"MBarrier", "mbarrier"> {
  let summary = "an array of mbarriers in shared memory";
  let description = [{
    `count` 8-byte mbarrier objects in shared memory, one per ring slot
    typically, made and initialized by `tilegpu.mbarrier_create`.

    Example: `!tilegpu.mbarrier<2>`
  }];
  let parameters = (ins "unsigned":$count);
  let assemblyFormat = "`<` $count `>`";
  let genVerifyDecl = 1;
}

def TileGPU_TensorMapType : TileGPU_Type<"TensorMap", "tensor_map"> {
  let summary = "a TMA tensor map (kernel parameter) and the box it moves";
  let description = [{
    A CUtensorMap made by the host (`cuTensorMapEncodeTiled`) and passed by
    value as a `__grid_constant__` kernel parameter: the global tensor and the
    box that one `tilegpu.tma_load` or `tilegpu.tma_store` moves, written in
    shared memory with `encoding`'s swizzle.

    Example: `!tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>`
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$boxShape, "::mlir::Type":$elementType,
                        "::mlir::Attribute":$encoding);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUTYPES_TD
