//===- TileOps.td - operations of the tile dialect ---------*- tablegen -*-===//
//
// Every op has a summary, a description whose example round-trips through
// `tilec-opt` (test/Dialect/Tile/ops.mlir holds the same examples), a
// declarative assembly format and a verifier whose messages start with
// `expected` (test/Dialect/Tile/invalid.mlir pins each one).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TILEOPS_TD
#define TILEC_DIALECT_TILE_TILEOPS_TD

include "TileTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

//===----------------------------------------------------------------------===//
// Grid
//===----------------------------------------------------------------------===//

class Tile_GridQueryOp<string mnemonic, string what> : Tile_Op<mnemonic, [Pure]> {
  let arguments = (ins I32Attr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$axis attr-dict";
  let builders = [OpBuilder<(ins "uint32_t":$axis), [{
    build($_builder, $_state, $_builder.getI32Type(), axis);
  }]>];
  let hasVerifier = 1;
  let summary = what # " along a grid axis";
}

def Tile_ProgramIdOp : Tile_GridQueryOp<"program_id", "index of this program instance"> {
  let description = [{
    The index (0-based, i32) of the running program instance along grid axis
    `axis` (0, 1 or 2).

    Example:
    ```mlir
    %pid = tile.program_id 0
    ```
  }];
}

def Tile_NumProgramsOp : Tile_GridQueryOp<"num_programs", "number of program instances"> {
  let description = [{
    The number of program instances (i32) along grid axis `axis` (0, 1 or 2).

    Example:
    ```mlir
    %n = tile.num_programs 1
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Pointers and descriptors
//===----------------------------------------------------------------------===//

def Tile_MakeDescOp : Tile_Op<"make_desc", [Pure, AttrSizedOperandSegments]> {
  let summary = "describe a strided global tensor for block loads and stores";
  let description = [{
    Makes a tensor descriptor over the global tensor that starts at `base` and
    has the runtime `shape` (i32, outermost first) and `strides` (i64, in
    elements). One shape and one stride per dimension of the descriptor's block
    shape. The pointee type of `base` is the element type of the descriptor.

    Example:
    ```mlir
    %d = tile.make_desc %base, [%rows, %cols], [%ld, %one] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
    ```
  }];
  let arguments = (ins Tile_PointerType:$base, Variadic<I32>:$shape,
                       Variadic<I64>:$strides);
  let results = (outs Tile_TensorDescType:$result);
  let assemblyFormat = [{
    $base `,` `[` $shape `]` `,` `[` $strides `]` attr-dict `:`
    qualified(type($base)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Tile_LoadBlockOp : Tile_Op<"load_block", [MemoryEffects<[MemRead]>]> {
  let summary = "load one block of a tensor through its descriptor";
  let description = [{
    Reads the block of the descriptor's block shape whose first element is at
    `offsets` (i32 element coordinates, one per dimension, outermost first).
    Elements outside the tensor's shape (at or past the end, or at negative
    coordinates) read as the padding value: `zero` (the default) or `nan`.

    Example:
    ```mlir
    %blk = tile.load_block %d[%r, %c] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
    %pad = tile.load_block %d[%r, %c] padding = nan : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$offsets,
      DefaultValuedAttr<Tile_PaddingOption, "::tilec::tile::PaddingOption::zero">:$padding);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $desc `[` $offsets `]` (`padding` `=` $padding^)? attr-dict `:`
    qualified(type($desc)) `->` type($result)
  }];
  let builders = [
    OpBuilder<(ins "::mlir::Value":$desc, "::mlir::ValueRange":$offsets)>
  ];
  let hasVerifier = 1;
}

def Tile_StoreBlockOp : Tile_Op<"store_block", [MemoryEffects<[MemWrite]>]> {
  let summary = "store one block of a tensor through its descriptor";
  let description = [{
    Writes `value`, a tile of the descriptor's block shape, to the block whose
    first element is at `offsets`. Elements that fall outside the tensor's
    shape are not written.

    Example:
    ```mlir
    tile.store_block %d[%r, %c], %blk : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$offsets,
                       Tile_Tensor:$value);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $value attr-dict `:` qualified(type($desc)) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Tile_AtomicAddBlockOp : Tile_Op<"atomic_add_block", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "add a tile into one block of an f32 tensor, element by element, atomically";
  let description = [{
    Adds `value`, an f32 tile of the descriptor's block shape, into the block
    whose first element is at `offsets`. Each element's addition is atomic:
    when several programs add into the same elements, every addition counts,
    in an unspecified order (so f32 rounding makes the sums not bitwise
    repeatable from run to run). Elements outside the tensor's shape are
    not touched. The attention backward accumulates dQ this way, one key
    block per program.

    Example:
    ```mlir
    tile.atomic_add_block %d[%bh, %r, %c0], %dq : !tile.desc<1x64x128xf32>, tensor<1x64x128xf32>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$offsets,
                       Tile_Tensor:$value);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $value attr-dict `:` qualified(type($desc)) `,` type($value)
  }];
  let hasVerifier = 1;
}

def Tile_AddPtrOp : Tile_Op<"addptr", [Pure, AllTypesMatch<["ptr", "result"]>]> {
  let summary = "advance pointers by element offsets";
  let description = [{
    `result = ptr + offset * sizeof(pointee)`, elementwise when `ptr` is a
    tensor of pointers; `offset` is an integer scalar or a tensor of the same
    shape as `ptr`.

    Example:
    ```mlir
    %q = tile.addptr %ptrs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    ```
  }];
  let arguments = (ins Tile_PtrLike:$ptr, Tile_IntLike:$offset);
  let results = (outs Tile_PtrLike:$result);
  let assemblyFormat = "$ptr `,` $offset attr-dict `:` type($ptr) `,` type($offset)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tile_LoadOp : Tile_Op<"load", [
    MemoryEffects<[MemRead]>, AttrSizedOperandSegments,
    TypesMatchWith<"result holds the pointees of ptr", "ptr", "result",
                   "getPointeeTensorType($_self)">,
    OptionalTypesMatchWith<"mask has the shape of ptr", "ptr", "mask",
                           "getMaskType($_self)">,
    OptionalTypesMatchWith<"other has the pointee type", "ptr", "other",
                           "getPointeeScalarType($_self)">]> {
  let summary = "load a tile through a tensor of pointers";
  let description = [{
    Reads one element per pointer. Where `mask` is false the pointer is not
    dereferenced and the element is `other` (zero when `other` is absent).

    Example:
    ```mlir
    %v = tile.load %ptrs mask %inb other %fill : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Optional<Tile_BoolTensor>:$mask,
                       Optional<Tile_Scalar>:$other);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_LoadScalarOp : Tile_Op<"load_scalar", [
    MemoryEffects<[MemRead]>, AttrSizedOperandSegments,
    TypesMatchWith<"result is the pointee of ptr", "ptr", "result",
                   "getPointeeScalarType($_self)">,
    OptionalTypesMatchWith<"other has the pointee type", "ptr", "other",
                           "getPointeeScalarType($_self)">]> {
  let summary = "load one value through a pointer";
  let description = [{
    Reads the element `ptr` points at: one value for the whole program (a
    sequence's offset in a packed batch, an entry of a block table). Where
    `mask` is false the pointer is not dereferenced and the result is
    `other` (zero when `other` is absent).

    Example:
    ```mlir
    %start = tile.load_scalar %p mask %inside other %c0 : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_PointerType:$ptr, Optional<I1>:$mask,
                       Optional<Tile_Scalar>:$other);
  let results = (outs Tile_Scalar:$result);
  let assemblyFormat = [{
    $ptr (`mask` $mask^)? (`other` $other^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def Tile_LastArrivalOp : Tile_Op<"last_arrival", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "count this program's arrival; true in the program that arrives last";
  let description = [{
    Every thread of the program runs it (never under a condition that differs
    between them). First the program's writes to global memory so far —
    stores, atomic additions, asynchronous (TMA) stores — are complete and
    visible to every program of the launch; then the program adds one to the
    `i32` counter `counter` points at, modulo `count` (the number of programs
    that arrive there). The result is true in exactly one program, the one
    whose arrival is the `count`-th; the counter is then back at zero, and
    what that program reads after the op includes every write the arriving
    programs made before arriving. The counter must be zero before the
    first arrival of a launch (it is again after the last): the fused
    attention backward's programs of one head arrive once each, and the last
    turns the head's f32 dQ accumulator into dQ.

    Example:
    ```mlir
    %last = tile.last_arrival %counter of %n : !tile.ptr<i32>
    ```
  }];
  let arguments = (ins Tile_PointerType:$counter, I32:$count);
  let results = (outs I1:$last);
  let assemblyFormat = "$counter `of` $count attr-dict `:` type($counter)";
  let hasVerifier = 1;
}

def Tile_StoreOp : Tile_Op<"store", [
    MemoryEffects<[MemWrite]>,
    TypesMatchWith<"value holds the pointees of ptr", "ptr", "value",
                   "getPointeeTensorType($_self)">,
    OptionalTypesMatchWith<"mask has the shape of ptr", "ptr", "mask",
                           "getMaskType($_self)">]> {
  let summary = "store a tile through a tensor of pointers";
  let description = [{
    Writes one element per pointer; where `mask` is false nothing is written.

    Example:
    ```mlir
    tile.store %ptrs, %v mask %inb : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins Tile_PtrTensor:$ptr, Tile_Tensor:$value,
                       Optional<Tile_BoolTensor>:$mask);
  let assemblyFormat = "$ptr `,` $value (`mask` $mask^)? attr-dict `:` type($ptr)";
}

//===----------------------------------------------------------------------===//
// Making and reshaping tiles
//===----------------------------------------------------------------------===//

def Tile_IotaOp : Tile_Op<"iota", [Pure]> {
  let summary = "the index range 0, 1, ..., N-1";
  let description = [{
    A 1-D i32 tile holding `0, 1, ..., N-1` where `N` is its length; with
    `tile.splat` and `arith.addi` it forms row and column indices for masks.

    Example:
    ```mlir
    %i = tile.iota : tensor<128xi32>
    ```
  }];
  let results = (outs Tile_I32Tensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_SplatOp : Tile_Op<"splat", [Pure,
    TypesMatchWith<"result element type is the scalar type", "result", "src",
                   "::mlir::getElementTypeOrSelf($_self)">]> {
  let summary = "a tile with every element equal to a scalar";
  let description = [{
    Example:
    ```mlir
    %t = tile.splat %x : tensor<128x64xf32>
    %p = tile.splat %base : tensor<128x!tile.ptr<f32>>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Tile_Scalar, Tile_PointerType]>:$src);
  let results = (outs RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let builders = [
    OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$shape)>
  ];
  let hasFolder = 1;
}

def Tile_BroadcastOp : Tile_Op<"broadcast", [Pure]> {
  let summary = "repeat a tile along its size-1 dimensions";
  let description = [{
    The result has the rank and element type of `src`; each dimension either
    equals the source's or the source's is 1 and is repeated.

    Example:
    ```mlir
    %b = tile.broadcast %col : tensor<128x1xf32> -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$src);
  let results = (outs RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ExpandDimsOp : Tile_Op<"expand_dims", [Pure]> {
  let summary = "insert a dimension of size 1";
  let description = [{
    Inserts a size-1 dimension before dimension `axis` of `src` (`axis` may
    equal the rank: append). A row vector of per-row values becomes a column
    with `axis = 1`, ready for `tile.broadcast`.

    Example:
    ```mlir
    %c = tile.expand_dims %m axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$src,
                       I32Attr:$axis);
  let results = (outs RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$result);
  let assemblyFormat = "$src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "int32_t":$axis)>];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_TransOp : Tile_Op<"trans", [Pure]> {
  let summary = "permute the dimensions of a tile";
  let description = [{
    Dimension `d` of the result is dimension `order[d]` of the source: the
    element of the result at index `i` is the source element whose index
    along dimension `order[d]` is `i[d]`. For 2-D tiles `order = [1, 0]` is
    the transpose used for `Q·Kᵀ`.

    Example:
    ```mlir
    %kt = tile.trans %k order = [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins Tile_Tensor:$src, DenseI64ArrayAttr:$order);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src `order` `=` $order attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$order)>];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_ReshapeOp : Tile_Op<"reshape", [Pure]> {
  let summary = "view a tile with another shape of the same size";
  let description = [{
    The elements of `src` in row-major order, laid out in the result shape,
    which has the same element type and number of elements. Mostly used to
    drop the unit dimensions of a block loaded through a higher-rank
    descriptor (one head of a `[heads, seq, dim]` tensor).

    Example:
    ```mlir
    %q2 = tile.reshape %q3 : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$src);
  let results = (outs RankedTensorOf<[AnyInteger, AnyFloat, Tile_PointerType]>:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::llvm::ArrayRef<int64_t>":$shape)>];
  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Tile_CastOp : Tile_Op<"cast", [Pure]> {
  let summary = "convert elements to another element type";
  let description = [{
    Converts each element (or a scalar) to the element type of the result, of
    the same shape. Float to float rounds to nearest even (`f32 -> bf16`) or
    is exact (`bf16 -> f32`); signed integer to float rounds to nearest even;
    float to signed integer truncates toward zero; integer to integer
    sign-extends or truncates. `i1` is a truth value: true converts to 1
    (1.0), false to 0.

    Example:
    ```mlir
    %p16 = tile.cast %p : tensor<128x64xf32> to tensor<128x64xbf16>
    ```
  }];
  let arguments = (ins Tile_Value:$src);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `to` type($result)";
  let builders = [OpBuilder<(ins "::mlir::Value":$src, "::mlir::Type":$elementType)>];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

def Tile_DotOp : Tile_Op<"dot", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "tile matrix product with accumulation: A·B + C";
  let description = [{
    `result = a · b + c` for `a : MxK`, `b : KxN`, `c : MxN`. The inputs are
    both bf16, both f16 (products accumulated in f32) or both f32; `c` and the
    result are f32. This is the op that becomes tensor-core instructions.

    Example:
    ```mlir
    %s = tile.dot %q, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    ```
  }];
  let arguments = (ins Tile_Tensor:$a, Tile_Tensor:$b, Tile_Tensor:$c);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `->` type($result)";
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "reduce a tile along one axis with sum, max or min";
  let description = [{
    Combines the elements along dimension `axis` with `kind`: `sum` (f32
    accumulation order unspecified), `max` or `min` (NaN propagates, as
    `arith.maximumf`/`arith.minimumf`). The result drops that dimension; a 1-D
    source reduces to a scalar. Row reductions of a 2-D tile use `axis = 1`.

    Example:
    ```mlir
    %rowmax = tile.reduce max %s axis = 1 : tensor<128x64xf32> -> tensor<128xf32>
    %total = tile.reduce sum %v axis = 0 : tensor<128xf32> -> f32
    ```
  }];
  let arguments = (ins Tile_ReduceKind:$kind, Tile_Tensor:$src, I32Attr:$axis);
  let results = (outs Tile_Value:$result);
  let assemblyFormat = "$kind $src `axis` `=` $axis attr-dict `:` type($src) `->` type($result)";
  let builders = [OpBuilder<(ins "::tilec::tile::ReduceKind":$kind, "::mlir::Value":$src,
                                 "int32_t":$axis)>];
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
}

def Tile_OnlineSoftmaxOp : Tile_Op<"online_softmax", [Pure,
    AllTypesMatch<["m", "m_new", "alpha"]>]> {
  let summary = "one step of the streaming (online) softmax";
  let description = [{
    Given a block of scores `s` (MxN, f32), the running row maximum `m` (M,
    f32, in log2 units, `-inf` before the first block) and the softmax scale
    `c` (usually `1/sqrt(d)`), with `t = c * log2(e)` folded into one multiply:

    ```
    m_new[i] = max(m[i], max_j s[i,j] * t)
    p[i,j]   = exp2(s[i,j] * t - m_new[i])      (unnormalized probabilities)
    alpha[i] = exp2(m[i] - m_new[i])            (rescale of the old sum and acc)
    ```

    The caller then updates `l = l * alpha + rowsum(p)` and
    `acc = acc * alpha + p · V`, and finishes with `O = acc / l` and
    `lse = (m + log2 l) * ln 2`. Masked scores are `-inf`. While a row has seen
    only masked scores `m_new = -inf`; there `p = 0` and `alpha = 1` (never
    `-inf - -inf`), so a row that stays fully masked ends with `l = 0`.

    The block may come in parts side by side (`s_0, …, s_k`, each MxN_i: a
    key block that is not a power of two, as power-of-two parts): `m_new`
    is the maximum over every part, and there is one `p_i` per part, of its
    part's type. The last operand is always `m`.

    With `rescale_threshold = τ` (τ ≥ 0, log2 units) a row keeps its old
    maximum unless the block's exceeds it by more than τ:
    `m_new[i] = r[i] > m[i] + τ ? r[i] : m[i]` where `r[i] = max_j s[i,j] * t`
    (FlashAttention-4's lazy rescale). `p` is then at most `2^τ`, the final
    `acc / l` and `lse` are the same, and `alpha` is exactly 1 in most steps,
    which `tile.scale_rows` turns into skipped multiplies. Without it (or
    τ = 0) `m_new` is the maximum.

    Example:
    ```mlir
    %m_new, %p, %alpha = tile.online_softmax %s, %m scale = 0.125 : tensor<128x64xf32>, tensor<128xf32>
    %m2, %p0, %p1, %a2 = tile.online_softmax %s0, %s1, %m scale = 0.125
        : tensor<128x128xf32>, tensor<128x32xf32>, tensor<128xf32>
    ```
  }];
  let arguments = (ins Variadic<Tile_F32Tensor>:$scores, Tile_F32Tensor:$m, F32Attr:$scale,
                       OptionalAttr<F32Attr>:$rescale_threshold);
  let results = (outs Tile_F32Tensor:$m_new, Variadic<Tile_F32Tensor>:$p,
                      Tile_F32Tensor:$alpha);
  let hasCustomAssemblyFormat = 1;
  let builders = [OpBuilder<(ins "::mlir::ValueRange":$scores, "::mlir::Value":$m,
                                 "float":$scale), [{
    build($_builder, $_state, m.getType(), scores.getTypes(), m.getType(), scores, m,
          $_builder.getF32FloatAttr(scale), ::mlir::FloatAttr());
  }]>];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The multiplier applied to every score: `scale * log2(e)`.
    double getLog2Scale();
  }];
}

def Tile_ScaleRowsOp : Tile_Op<"scale_rows", [Pure, AllTypesMatch<["x", "result"]>]> {
  let summary = "each row of a tile times its factor";
  let description = [{
    `result[i, j] = x[i, j] * factor[i]`: the online softmax's rescale of
    the running accumulator by `alpha`. The same as a broadcast multiply,
    except on the GPU (convert-tilegpu-to-nvvm): a warp whose rows' factors
    are all exactly 1 skips its multiplies (one vote per warp), which with
    `tile.online_softmax`'s `rescale_threshold` is most steps. `factor` is
    read in the slice of `x`'s layout along its columns.

    Example:
    ```mlir
    %o = tile.scale_rows %acc, %alpha : tensor<128x128xf32>, tensor<128xf32>
    ```
  }];
  let arguments = (ins Tile_F32Tensor:$x, Tile_F32Tensor:$factor);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = "$x `,` $factor attr-dict `:` type($x) `,` type($factor)";
  let hasVerifier = 1;
}

#endif // TILEC_DIALECT_TILE_TILEOPS_TD
