//===- TileGPUAttrs.td - layouts of tiles and of shared memory -*- tablegen -*-===//
//
// Distributed layouts (where each element of a register tile lives) are
// tensor encodings; every one of them denotes a `LinearLayout`. Shared-memory
// encodings say how the rows of a `!tilegpu.smem` buffer are laid out.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD

include "TileGPUBase.td"
include "mlir/IR/TensorEncoding.td"

def TileGPU_DistributedLayout : AttrInterface<"DistributedLayoutAttr"> {
  let cppNamespace = "::tilec::tilegpu";
  let description = [{
    A distributed layout: for a tile of a given shape, the function from
    (register, lane, warp) to tile coordinates. Every implementation denotes
    a `tilec::LinearLayout`; lowerings read only that.
  }];
  let methods = [
    InterfaceMethod<[{
        The layout of a tile of `shape`; fails (with the reason in `whyNot`
        when given) when this attribute cannot place a tile of that shape.
      }], "::mlir::FailureOr<::tilec::LinearLayout>", "toLinearLayout",
      (ins "::llvm::ArrayRef<int64_t>":$shape, "std::string *":$whyNot)>,
  ];
}

class TileGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<TileGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

/// A distributed layout attribute: implements the layout interface and
/// verifies itself against every tensor type it is the encoding of.
class TileGPU_LayoutAttr<string name, string attrMnemonic>
    : TileGPU_Attr<name, attrMnemonic, [
        DeclareAttrInterfaceMethods<TileGPU_DistributedLayout>,
        DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let genVerifyDecl = 1;
}

def TileGPU_LinearLayoutAttr : TileGPU_LayoutAttr<"LinearLayout", "linear"> {
  let summary = "a distributed layout given by its bases";
  let description = [{
    The general layout: each bit of the register, lane and warp index adds
    (XOR) a fixed coordinate vector, its basis; a zero basis replicates.
    There are exactly five lane bases (32 lanes). `--emit=gpu` prints every
    layout in this form, so it is also what the other layout attributes mean.

    Example: the mma.sync m16n8 accumulator of a 16x8 tile on one warp:
    ```mlir
    tensor<16x8xf32, #tilegpu.linear<reg = [[0, 1], [8, 0]],
        lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>
    ```
  }];
  let parameters = (ins "unsigned":$rank,
                        ArrayRefParameter<"int64_t", "register bases, flattened">:$regBases,
                        ArrayRefParameter<"int64_t", "lane bases, flattened">:$laneBases,
                        ArrayRefParameter<"int64_t", "warp bases, flattened">:$warpBases);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "const ::tilec::LinearLayout &":$layout)>
  ];
}

def TileGPU_BlockedLayoutAttr : TileGPU_LayoutAttr<"BlockedLayout", "blocked"> {
  let summary = "contiguous elements per thread, lanes and warps tiling the shape";
  let description = [{
    Each thread holds `size_per_thread` contiguous elements; a warp's 32 lanes
    tile `threads` of those, the warps tile `warps` of the lanes' tiles, each
    filling dimensions in `order` (fastest first); the pattern repeats in
    registers over a larger tile and replicates over a smaller one. Every
    count is a power of two, `threads` multiplies to 32.

    Example:
    ```mlir
    tensor<64x128xbf16, #tilegpu.blocked<size_per_thread = [1, 8],
        threads = [2, 16], warps = [4, 1], order = [1, 0]>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$sizePerThread,
                        ArrayRefParameter<"int64_t">:$threadsPerWarp,
                        ArrayRefParameter<"int64_t">:$warpsPerCTA,
                        ArrayRefParameter<"int64_t">:$order);
  let assemblyFormat = [{
    `<` `size_per_thread` `=` `[` $sizePerThread `]` `,` `threads` `=` `[` $threadsPerWarp `]`
    `,` `warps` `=` `[` $warpsPerCTA `]` `,` `order` `=` `[` $order `]` `>`
  }];
}

def TileGPU_MmaLayoutAttr : TileGPU_LayoutAttr<"MmaLayout", "mma"> {
  let summary = "the accumulator of mma.sync m16n8 on a grid of warps";
  let description = [{
    The C/D fragment of `mma.sync.m16n8k16` (f32): each warp owns 16x8 blocks,
    warps arranged `warps = [M, N]`, blocks repeated in registers along N
    first. With four warps along M this is also wgmma's m64nN accumulator.

    Example:
    ```mlir
    tensor<128x64xf32, #tilegpu.mma<warps = [4, 1]>>
    ```
  }];
  let parameters = (ins "unsigned":$warpsM, "unsigned":$warpsN);
  let assemblyFormat = "`<` `warps` `=` `[` $warpsM `,` $warpsN `]` `>`";
}

def TileGPU_MmaOperandLayoutAttr : TileGPU_LayoutAttr<"MmaOperandLayout", "mma_operand"> {
  let summary = "operand A (index 0) or B (index 1) of mma.sync m16n8k16";
  let description = [{
    The register fragments of a 16-bit A (MxK, replicated over the warps
    along N) or B (KxN, replicated over the warps along M) for the warp grid
    of the matching `#tilegpu.mma` accumulator.

    Example:
    ```mlir
    tensor<128x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>
    ```
  }];
  let parameters = (ins "unsigned":$index, "unsigned":$warpsM, "unsigned":$warpsN);
  let assemblyFormat = [{
    `<` `index` `=` $index `,` `warps` `=` `[` $warpsM `,` $warpsN `]` `>`
  }];
}

def TileGPU_WgmmaLayoutAttr : TileGPU_LayoutAttr<"WgmmaLayout", "wgmma"> {
  let summary = "the accumulator of wgmma m64nN on warpgroups along M, then N";
  let description = [{
    The f32 accumulator of `wgmma.mma_async.m64nNk16`: each warpgroup owns 64
    rows (its four warps 16 each), `warpgroups` of them stacked along M. The
    same placement as `#tilegpu.mma<warps = [4 * warpgroups, 1]>`.

    With `columns = C` (default 1) there are C times as many warpgroups: the
    columns are cut into C blocks side by side and each group of
    `warpgroups` owns one (its wgmma's N is the block's width). That is how
    a dot whose M is too short for all the warps uses them (the fused
    attention backward's dQ: 64 query rows on two warpgroups, 64 of the
    head dim's columns each).

    Example:
    ```mlir
    tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
    tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
    ```
  }];
  let parameters = (ins "unsigned":$warpgroups, DefaultValuedParameter<"unsigned", "1">:$columns);
  let assemblyFormat = "`<` `warpgroups` `=` $warpgroups (`,` `columns` `=` $columns^)? `>`";
}

def TileGPU_WgmmaOperandLayoutAttr
    : TileGPU_LayoutAttr<"WgmmaOperandLayout", "wgmma_operand"> {
  let summary = "operand A of wgmma m64nNk16 held in registers";
  let description = [{
    wgmma's A fragment when it comes from registers (P in attention's P·V):
    the placement of mma.sync's A for four warps per warpgroup along M. With
    `columns = C` (the accumulator's column blocks), each block's
    warpgroups hold a copy.

    Example:
    ```mlir
    tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>
    ```
  }];
  let parameters = (ins "unsigned":$warpgroups, DefaultValuedParameter<"unsigned", "1">:$columns);
  let assemblyFormat = "`<` `warpgroups` `=` $warpgroups (`,` `columns` `=` $columns^)? `>`";
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

def TileGPU_SwizzledAttr : TileGPU_Attr<"Swizzled", "swizzled"> {
  let summary = "rows in wgmma/TMA swizzle atoms";
  let description = [{
    The innermost dimension is cut into column blocks of `bytes` (32, 64 or
    128) bytes, each stored as its own sub-buffer of consecutive rows; within
    a block, the 16-byte chunk `j` of the row at byte offset `o` sits at
    chunk `j ^ ((o / 128) % (bytes / 16))` (for 128 bytes: row `r`'s chunk
    `j` at `j ^ (r % 8)`). Rows come in atoms of eight; buffers start
    1024-byte aligned. This is what wgmma descriptors and TMA boxes with the
    same swizzle mode read and write.

    Example: `!tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>`
  }];
  let parameters = (ins "unsigned":$bytes);
  let assemblyFormat = "`<` $bytes `>`";
  let genVerifyDecl = 1;
}

def TileGPU_PaddedAttr : TileGPU_Attr<"Padded", "padded"> {
  let summary = "row-major rows followed by padding";
  let description = [{
    Row-major, each row followed by `bytes` bytes of padding (a multiple of
    16, possibly 0) so that ldmatrix reads of eight rows hit distinct banks.

    Example: `!tilegpu.smem<64x128xbf16, #tilegpu.padded<16>>`
  }];
  let parameters = (ins "unsigned":$bytes);
  let assemblyFormat = "`<` $bytes `>`";
  let genVerifyDecl = 1;
}

def TileGPU_SharedEncoding : AnyAttrOf<[TileGPU_SwizzledAttr, TileGPU_PaddedAttr]>;

#endif // TILEC_DIALECT_TILEGPU_TILEGPUATTRS_TD
