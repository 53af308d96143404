//===- TileGPUOps.td - operations of the tilegpu dialect ---*- tablegen -*-===//
//
// Every op has a summary, a description whose example round-trips through
// `tilec-opt` (test/Dialect/TileGPU/ops.mlir holds the same examples), a
// declarative assembly format where one reads well, and a verifier whose
// messages start with `expected` (test/Dialect/TileGPU/invalid.mlir pins
// each one).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
#define TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD

include "TileGPUTypes.td"
include "TileTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_Tile : RankedTensorOf<[AnyInteger, AnyFloat]>;
def TileGPU_F32Tile : RankedTensorOf<[F32]>;

//===----------------------------------------------------------------------===//
// Registers
//===----------------------------------------------------------------------===//

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure]> {
  let summary = "move a tile to another distributed layout";
  let description = [{
    The same tile (shape and element type) held in another layout. Lowering
    moves registers within threads when the layouts allow it, else exchanges
    the tile through shared memory. Folds away when both layouts are the
    same, into one conversion from the first source of a chain, and into a
    constant for a splat constant (tilegpu-lower-conversions also makes
    cheap producers again in the wanted layout).

    Example:
    ```mlir
    %b = tilegpu.convert_layout %a : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>
        -> tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>
    ```
  }];
  let arguments = (ins TileGPU_Tile:$src);
  let results = (outs TileGPU_Tile:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

def TileGPU_AllocOp : TileGPU_Op<"alloc", [MemoryEffects<[MemAlloc]>]> {
  let summary = "a buffer in shared memory";
  let description = [{
    Reserves a shared-memory buffer for the rest of the kernel (its live
    range ends at its last use). `offset`, the byte offset in the block's
    dynamic shared memory, is set by `tilegpu-allocate-shared-memory`;
    lowering needs it.

    Example:
    ```mlir
    %ring = tilegpu.alloc : !tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>>
    %q = tilegpu.alloc {offset = 32768 : i64} : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_SharedMemoryType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_SlotOp : TileGPU_Op<"slot", [Pure]> {
  let summary = "one slot of a multi-slot shared buffer";
  let description = [{
    The view of slot `index` (outermost dimension) of `buffer`. The index is
    not checked at run time; lowering computes `base + index * slot bytes`.

    Example:
    ```mlir
    %s = tilegpu.slot %ring[%i] : !tilegpu.smem<2x64x128xbf16, #tilegpu.swizzled<128>>
        -> !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
    ```
  }];
  let arguments = (ins TileGPU_SharedMemoryType:$buffer, I32:$index);
  let results = (outs TileGPU_SharedMemoryType:$result);
  let assemblyFormat = [{
    $buffer `[` $index `]` attr-dict `:` qualified(type($buffer)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileGPU_LocalLoadOp : TileGPU_Op<"local_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read a tile from shared memory into registers";
  let description = [{
    Each thread reads its elements of the tile in the result's layout
    (ldmatrix where the layout is an mma operand's and the rows allow it).

    Example:
    ```mlir
    %t = tilegpu.local_load %s : !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
        -> tensor<64x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
    ```
  }];
  let arguments = (ins TileGPU_SharedMemoryType:$src);
  let results = (outs TileGPU_Tile:$result);
  let assemblyFormat = "$src attr-dict `:` qualified(type($src)) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_LocalStoreOp : TileGPU_Op<"local_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write a tile from registers into shared memory";
  let description = [{
    Each thread writes its elements of `value` (replicas write once).

    With `matrix`, a warp writes four 8x8 blocks of 16-bit elements at once
    (`stmatrix.x4`): the value's layout must be made of mma's C fragments
    (a register pair is two adjacent columns of one row, lanes 0-1 pick the
    pair, lanes 2-4 the row; `fitsStMatrix`) and the buffer swizzled. Each
    lane gives one row address, so a tile needs a quarter of the address
    registers of element stores (the fused attention backward's dSᵀ, stored
    every step).

    Example:
    ```mlir
    tilegpu.local_store %t, %s : tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>,
        !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
    tilegpu.local_store matrix %dsT, %b : tensor<128x64xbf16, #tilegpu.wgmma<warpgroups = 2>>,
        !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>
    ```
  }];
  let arguments = (ins TileGPU_Tile:$value, TileGPU_SharedMemoryType:$dst, UnitAttr:$matrix);
  let assemblyFormat = [{
    (`matrix` $matrix^)? $value `,` $dst attr-dict `:` type($value) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TileGPU_ScalarStoreOp : TileGPU_Op<"scalar_store", [MemoryEffects<[MemWrite]>]> {
  let summary = "write one element of a one-dimensional shared buffer";
  let description = [{
    Every thread that runs it writes `value` to element `index` of `buffer`
    (a constant index is checked; others are not). One thread hands a value
    to other warps this way: it writes, then arrives on an mbarrier (a
    release), and the readers `tilegpu.scalar_load` it after waiting for
    that phase (an acquire) — `tilegpu-claim-tiles` hands each next tile's
    index from the producer to the consumers so.

    Example:
    ```mlir
    tilegpu.scalar_store %t, %next[%i] : i32, !tilegpu.smem<4xi32, #tilegpu.padded<0>>
    ```
  }];
  let arguments = (ins AnyInteger:$value, TileGPU_SharedMemoryType:$buffer, I32:$index);
  let assemblyFormat = [{
    $value `,` $buffer `[` $index `]` attr-dict `:` type($value) `,` qualified(type($buffer))
  }];
  let hasVerifier = 1;
}

def TileGPU_ScalarLoadOp : TileGPU_Op<"scalar_load", [MemoryEffects<[MemRead]>]> {
  let summary = "read one element of a one-dimensional shared buffer";
  let description = [{
    Every thread that runs it reads element `index` of `buffer` (see
    `tilegpu.scalar_store`).

    Example:
    ```mlir
    %t = tilegpu.scalar_load %next[%i] : !tilegpu.smem<4xi32, #tilegpu.padded<0>> -> i32
    ```
  }];
  let arguments = (ins TileGPU_SharedMemoryType:$buffer, I32:$index);
  let results = (outs AnyInteger:$result);
  let assemblyFormat = [{
    $buffer `[` $index `]` attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileGPU_ClaimTileOp : TileGPU_Op<"claim_tile", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "take the next value of the kernel's tile counter";
  let description = [{
    Run by every lane of one warp (all of them active): lane 0 adds one to
    the kernel's tile counter, a global `i32` of the module (`<kernel>_tiles`,
    zero when the module is loaded), and every lane gets the value it held
    before. The lane whose claim returns `last` sets the counter back to
    zero, so that the next launch starts from zero: the caller guarantees
    that the launch's claims are exactly 0, 1, ..., `last` (as in
    `tilegpu-claim-tiles`: programs claim until a claim comes back past
    the last tile, one failed claim each) and that launches of one loaded
    kernel do not overlap.

    Example:
    ```mlir
    %claimed = tilegpu.claim_tile last %last : i32
    ```
  }];
  let arguments = (ins I32:$last);
  let results = (outs I32:$result);
  let assemblyFormat = "`last` $last attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// cp.async (sm_80 and later)
//===----------------------------------------------------------------------===//

def TileGPU_AsyncCopyOp : TileGPU_Op<"async_copy", [
    MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a block from global to shared memory with cp.async";
  let description = [{
    Starts copying the block of `desc` at element `offsets` into `dst`, in
    16-byte chunks spread over all threads; elements outside the
    descriptor's shape are written as zero (nothing is read for them). The
    block's shape, without its unit dimensions, is `dst`'s. Nothing is
    committed: `tilegpu.async_commit_group` closes a group, and the copy is
    complete once `tilegpu.async_wait` has waited for that group.

    Example:
    ```mlir
    %t = tilegpu.async_copy %k[%bh, %n, %c0], %s : !tile.desc<1x64x128xbf16>,
        !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>
    ```
  }];
  let arguments = (ins Tile_TensorDescType:$desc, Variadic<I32>:$offsets,
                       TileGPU_SharedMemoryType:$dst);
  let results = (outs TileGPU_AsyncTokenType:$token);
  let assemblyFormat = [{
    $desc `[` $offsets `]` `,` $dst attr-dict `:` qualified(type($desc)) `,` qualified(type($dst))
  }];
  let hasVerifier = 1;
}

def TileGPU_AsyncCommitGroupOp : TileGPU_Op<"async_commit_group"> {
  let summary = "close a cp.async commit group";
  let description = [{
    Commits every cp.async this thread started since the last commit
    (`tokens` name them; an empty group is allowed, and keeps wait counts
    constant past the end of a loop). Returns the group's token.

    Example:
    ```mlir
    %g = tilegpu.async_commit_group(%t0, %t1)
    %empty = tilegpu.async_commit_group
    ```
  }];
  let arguments = (ins Variadic<TileGPU_AsyncTokenType>:$tokens);
  let results = (outs TileGPU_AsyncTokenType:$group);
  // The tokens in parentheses: a bare list would take the next line's
  // result name for one when the group commits none.
  let assemblyFormat = "(`(` $tokens^ `)`)? attr-dict";
}

def TileGPU_AsyncWaitOp : TileGPU_Op<"async_wait"> {
  let summary = "wait until at most `pending` cp.async groups are in flight";
  let description = [{
    `cp.async.wait_group pending`: every group committed before the last
    `pending` ones is complete for this thread. `groups` are the groups this
    wait is meant to complete (for passes and readers; the count is what the
    hardware obeys). Other threads' copies are visible only after a barrier.

    Example:
    ```mlir
    tilegpu.async_wait %g {pending = 1 : i32}
    ```
  }];
  let arguments = (ins Variadic<TileGPU_AsyncTokenType>:$groups, I32Attr:$pending);
  let assemblyFormat = "$groups attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// TMA and mbarriers (sm_90a)
//===----------------------------------------------------------------------===//

def TileGPU_MBarrierCreateOp : TileGPU_Op<"mbarrier_create", [MemoryEffects<[MemAlloc, MemWrite]>]> {
  let summary = "make and initialize an array of mbarriers";
  let description = [{
    Allocates `count` mbarriers in shared memory and initializes each to expect
    `arrivals` arrivals per phase (one thread initializes, then the init is
    fenced and published to the block by a block barrier — one for creates
    in a row — so it is not allowed inside a warp role), all in phase 0. `offset` is set by
    shared-memory allocation like `tilegpu.alloc`'s.

    Example:
    ```mlir
    %full = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins I32Attr:$arrivals, OptionalAttr<I64Attr>:$offset);
  let results = (outs TileGPU_MBarrierType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
}

def TileGPU_MBarrierArriveOp : TileGPU_Op<"mbarrier_arrive"> {
  let summary = "arrive on an mbarrier, optionally announcing transaction bytes";
  let description = [{
    This thread arrives once on barrier `index` of `barriers`. With
    `expect_tx`, the arrival also adds that many bytes to the phase's
    expected transaction count (`mbarrier.arrive.expect_tx`): the phase then
    completes only once TMA copies have delivered them.

    Example:
    ```mlir
    tilegpu.mbarrier_arrive %full[%i] expect_tx 32768 : !tilegpu.mbarrier<2>
    tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MBarrierType:$barriers, I32:$index,
                       OptionalAttr<I32Attr>:$expect_tx);
  let assemblyFormat = [{
    $barriers `[` $index `]` (`expect_tx` $expect_tx^)? attr-dict `:` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TileGPU_MBarrierWaitOp : TileGPU_Op<"mbarrier_wait"> {
  let summary = "wait for an mbarrier phase to complete";
  let description = [{
    Blocks until the phase of barrier `index` whose parity is `phase & 1` has
    completed (`mbarrier.try_wait.parity` in a loop). The phase is explicit:
    a ring's consumer passes `iteration / slots`, so reusing a slot waits
    for the next phase.

    Example:
    ```mlir
    tilegpu.mbarrier_wait %full[%i], %phase : !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_MBarrierType:$barriers, I32:$index, I32:$phase);
  let assemblyFormat = [{
    $barriers `[` $index `]` `,` $phase attr-dict `:` qualified(type($barriers))
  }];
}

def TileGPU_TMALoadOp : TileGPU_Op<"tma_load"> {
  let summary = "copy a box from global to shared memory with TMA";
  let description = [{
    One elected lane of every warp that runs it issues `cp.async.bulk.tensor`
    for the box of `map` at `coords` (outermost first, like descriptor
    offsets) into `dst`, so it belongs under a condition that leaves one
    warp (each issue delivers the bytes again); the copy
    completes its bytes on barrier `index` of `barriers` (whose expected
    transaction count must include them). Out-of-bounds elements are zero.
    `dst` has the box's shape without unit dimensions and the map's swizzle,
    or is several boxes wide: when a box's rows are exactly one column
    block of a swizzled `dst` (64 bf16 elements under 128-byte swizzling),
    a `dst` k times as wide gets k boxes, one per column block, at
    innermost coordinates `c`, `c + width`, ... (a 64x128 bf16 K tile is
    two copies of a 64x64 box).

    Example:
    ```mlir
    tilegpu.tma_load %kmap[%bh, %n, %c0], %s, %full[%i]
        : !tilegpu.tensor_map<1x64x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.mbarrier<2>
    ```
  }];
  let arguments = (ins TileGPU_TensorMapType:$map, Variadic<I32>:$coords,
                       TileGPU_SharedMemoryType:$dst, TileGPU_MBarrierType:$barriers,
                       I32:$index);
  let assemblyFormat = [{
    $map `[` $coords `]` `,` $dst `,` $barriers `[` $index `]` attr-dict `:`
    qualified(type($map)) `,` qualified(type($dst)) `,` qualified(type($barriers))
  }];
  let hasVerifier = 1;
}

def TileGPU_TMAStoreOp : TileGPU_Op<"tma_store"> {
  let summary = "copy a box from shared to global memory with TMA";
  let description = [{
    One elected lane of every warp that runs it (so: run it in one warp)
    issues `cp.async.bulk.tensor` from `src` to the box of `map` at
    `coords` and commits it as a bulk group; out-of-bounds elements are
    not written. Like `tma_load`, `src` may be several boxes wide (one copy
    per 128-byte column block of a swizzled buffer, all in one group). With `add`, the box is added into global memory instead
    (`cp.reduce.async.bulk.tensor ... .add`: each element atomically, so
    programs may add into the same box; f32, f16 or bf16). Shared stores
    that produced `src` must be fenced (`tilegpu.fence async_proxy`) and
    published by a barrier first; `tilegpu.tma_store_wait` waits before
    `src` is reused or the kernel ends.

    Example:
    ```mlir
    tilegpu.tma_store %s, %omap[%bh, %m, %c0]
        : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.tensor_map<1x64x64xbf16, #tilegpu.swizzled<128>>
    tilegpu.tma_store add %acc, %dqmap[%bh, %m, %c0]
        : !tilegpu.smem<64x32xf32, #tilegpu.swizzled<128>>,
          !tilegpu.tensor_map<1x64x32xf32, #tilegpu.swizzled<128>>
    ```
  }];
  let arguments = (ins TileGPU_SharedMemoryType:$src, TileGPU_TensorMapType:$map,
                       Variadic<I32>:$coords, UnitAttr:$add);
  let assemblyFormat = [{
    (`add` $add^)? $src `,` $map `[` $coords `]` attr-dict `:` qualified(type($src)) `,`
    qualified(type($map))
  }];
  let hasVerifier = 1;
}

def TileGPU_TMAStoreWaitOp : TileGPU_Op<"tma_store_wait"> {
  let summary = "wait until at most `pending` TMA stores still read shared memory";
  let description = [{
    `cp.async.bulk.wait_group.read pending`: the sources of every older TMA
    store may be overwritten.

    Example:
    ```mlir
    tilegpu.tma_store_wait {pending = 0 : i32}
    ```
  }];
  let arguments = (ins I32Attr:$pending);
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Matrix multiplies
//===----------------------------------------------------------------------===//

def TileGPU_MmaOp : TileGPU_Op<"mma", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + a·b with mma.sync m16n8k16 (sm_80)";
  let description = [{
    Synchronous tensor-core multiply-add on registers: `a` (MxK) and `b`
    (KxN) of bf16 or f16 in the `#tilegpu.mma_operand` layouts of `acc`'s
    `#tilegpu.mma` layout (same warp grid), f32 accumulate.

    Example:
    ```mlir
    %d = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>,
        tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
        -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
    ```
  }];
  let arguments = (ins TileGPU_Tile:$a, TileGPU_Tile:$b, TileGPU_F32Tile:$acc);
  let results = (outs TileGPU_F32Tile:$result);
  let assemblyFormat = "$a `,` $b `,` $acc attr-dict `:` type($a) `,` type($b) `->` type($result)";
  let hasVerifier = 1;
}

def TileGPU_WarpgroupDotOp : TileGPU_Op<"warpgroup_dot", [MemoryEffects<[MemRead]>,
    InferTypeOpAdaptor]> {
  let summary = "start acc + a·b on the warpgroups with wgmma (sm_90a)";
  let description = [{
    Issues `wgmma.mma_async` m64nNk16 steps over K and commits them as one
    wgmma group; returns a token, not the accumulators: `tilegpu.dot_wait`
    hands them back once the group is done, so softmax or another dot can run
    in between and nothing reads them early. `a` is MxK, in shared memory or
    in registers (`#tilegpu.wgmma_operand`), or KxM in shared memory (M
    contiguous) with `transpose_a` (a tile made transposed, as the
    backward's dSᵀ); `b` is in swizzled shared memory, KxN, or NxK (K
    contiguous) with `transpose_b`; `acc` is MxN f32 in the
    `#tilegpu.wgmma` layout: each warpgroup runs the steps of its own 64-row
    slabs and, with `columns = C`, of its own N / C columns (its wgmma's N, a
    multiple of 8 up to 256). K is a multiple of 16.

    `acc` may also be the token of an earlier `warpgroup_dot` of the same
    accumulator type (a chain: a sum over K split into parts, such as Q·Kᵀ
    over a head dim's column tiles): the steps add onto its accumulators
    while they are still in flight, with no wait in between (wgmma orders
    the accumulator accesses of same-shape steps). The token is then used
    up: this dot is its only use, and this dot's token stands for both
    groups; a `dot_wait` on it returns the sum once both are done, and the
    operands of every dot in the chain are read until then.

    Example:
    ```mlir
    %tok = tilegpu.warpgroup_dot %q, %k, %acc transpose_b
        : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>,
          tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
    %s = tilegpu.warpgroup_dot %q2, %k2, %tok transpose_b  // chained onto %tok
        : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.dot_token<tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>>
    %dq = tilegpu.warpgroup_dot %dsT, %k, %zero transpose_a
        : !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>,
          !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>,
          tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
    ```
  }];
  let arguments = (ins AnyTypeOf<[TileGPU_SharedMemoryType, TileGPU_Tile]>:$a,
                       TileGPU_SharedMemoryType:$b,
                       AnyTypeOf<[TileGPU_F32Tile, TileGPU_DotTokenType]>:$acc,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs TileGPU_DotTokenType:$token);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc))
  }];
  let extraClassDeclaration = [{
    /// The accumulators' type (of `acc`, or of the chained token's dot).
    ::mlir::RankedTensorType getAccType();
    /// The dot whose in-flight accumulators this one adds onto (a chain),
    /// or null.
    WarpgroupDotOp getChainedDot();
  }];
  let hasVerifier = 1;
}

def TileGPU_DotWaitOp : TileGPU_Op<"dot_wait", [InferTypeOpAdaptor, AttrSizedOperandSegments]> {
  let summary = "wait for warpgroup_dot groups and take their accumulators";
  let description = [{
    `wgmma.wait_group pending`: all but the `pending` most recently committed
    wgmma groups are complete; returns the accumulators of `tokens`, which
    must be among the completed ones (the pass that places waits ensures it).

    `after`: f32 tiles whose computation stays above the wait in the
    machine code, not only in the IR. ptxas schedules `wgmma.wait_group`
    as early as the registers allow, so a softmax placed between a P·V's
    issue and its wait may still run after the wait, with the tensor cores
    idle for this warpgroup. The lowering hands each `after` register to a
    shared-memory store, under a predicate no launch makes true, just
    before the wait: ptxas keeps stores and the wait in order, so
    everything the values are computed from runs before the wait
    (tilegpu-sink-dot-waits sets them: the loop-carried row sums).

    Example:
    ```mlir
    %s = tilegpu.dot_wait %tok {pending = 0 : i32}
        : !tilegpu.dot_token<tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>>
    %o = tilegpu.dot_wait %pv after(%l : tensor<64x4xf32, #layout>) {pending = 0 : i32}
        : !tilegpu.dot_token<tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>>
    ```
  }];
  let arguments = (ins Variadic<TileGPU_DotTokenType>:$tokens, Variadic<TileGPU_F32Tile>:$after,
                       I32Attr:$pending);
  let results = (outs Variadic<TileGPU_F32Tile>:$results);
  let assemblyFormat = [{
    $tokens (`after` `(` $after^ `:` qualified(type($after)) `)`)? attr-dict `:`
    qualified(type($tokens))
  }];
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$tokens, "int32_t":$pending), [{
      build($_builder, $_state, tokens, ::mlir::ValueRange{}, pending);
    }]>
  ];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp roles and synchronization
//===----------------------------------------------------------------------===//

def TileGPU_WarpSpecializeOp : TileGPU_Op<"warp_specialize", [
    NoTerminator, RecursiveMemoryEffects]> {
  let summary = "regions run by different warpgroups, each with a register budget";
  let description = [{
    Splits the block's warps into roles: role `i` is run by the next
    `warps[i]` warps (whole warpgroups of 4), which first set their register
    budget to `registers[i]` per thread (`setmaxnreg`: a multiple of 8 in
    [24, 256]). Inside a role, thread and warp indices count from the role's
    first thread: a tile's layout there is over the role's warps. The roles together use every warp of the block once, and
    their budgets fit the register file (65536 per SM for one block). Roles
    communicate through shared memory, mbarriers and named barriers only.

    Example:
    ```mlir
    tilegpu.warp_specialize
      role warps = 4 registers = 24 {
        tilegpu.barrier_arrive %c1, 384
      }
      role warps = 8 registers = 240 {
        tilegpu.barrier_sync %c1, 384
      }
    ```
  }];
  let arguments = (ins DenseI32ArrayAttr:$warps, DenseI32ArrayAttr:$registers);
  let regions = (region VariadicRegion<SizedRegion<1>>:$roles);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

class TileGPU_NamedBarrierOp<string mnemonic, string what> : TileGPU_Op<mnemonic> {
  let arguments = (ins I32:$id, I32Attr:$threads);
  let assemblyFormat = "$id `,` $threads attr-dict";
  let hasVerifier = 1;
  let summary = what;
}

def TileGPU_BarrierSyncOp
    : TileGPU_NamedBarrierOp<"barrier_sync", "wait at named barrier `id` for `threads` threads"> {
  let description = [{
    `bar.sync id, threads`: this warp arrives at hardware barrier `id`
    (0-15; 0 is the block-wide barrier of `tilegpu.barrier`) and waits
    until `threads` threads (a multiple of 32) have arrived.

    Example:
    ```mlir
    tilegpu.barrier_sync %c1, 256
    ```
  }];
}

def TileGPU_BarrierArriveOp
    : TileGPU_NamedBarrierOp<"barrier_arrive", "arrive at named barrier `id` without waiting"> {
  let description = [{
    `bar.arrive id, threads`: counts this warp's arrival at barrier `id`
    and goes on (a producer signalling consumers that wait with
    `tilegpu.barrier_sync`).

    Example:
    ```mlir
    tilegpu.barrier_arrive %c1, 256
    ```
  }];
}

def TileGPU_WarpgroupIdOp : TileGPU_Op<"warpgroup_id", [Pure]> {
  let summary = "this thread's warpgroup, counted from the first of its warp role";
  let description = [{
    The index of the warpgroup (128 threads) the thread belongs to: inside
    a role of `tilegpu.warp_specialize`, counted from the role's first
    warpgroup; elsewhere from the block's. Tile ops never need it (their
    layouts place every register); passes that order warpgroups by hand do
    (`tilegpu-ping-pong` picks each warpgroup's named barrier with it).

    Example:
    ```mlir
    %wg = tilegpu.warpgroup_id : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_WarpIdOp : TileGPU_Op<"warp_id", [Pure]> {
  let summary = "this thread's warp, counted from the first of its warp role";
  let description = [{
    The index of the warp (32 threads) the thread belongs to: inside a role
    of `tilegpu.warp_specialize`, counted from the role's first warp;
    elsewhere from the block's. The same in every lane of a warp, and so
    lowered (read from lane 0 by `shfl.sync`) that ptxas knows it: a branch
    on it (the first warp issuing a TMA store) does not make ptxas treat the
    code around it as divergent, which in a loop moved its uniform values
    (wgmma descriptors) into vector registers.

    Example:
    ```mlir
    %warp = tilegpu.warp_id : i32
    ```
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier"> {
  let summary = "block-wide barrier";
  let description = [{
    `bar.sync 0`: every thread of the block waits for all others; shared
    memory written before it is visible after it. Not inside a warp role
    (roles synchronize with named barriers).

    Example:
    ```mlir
    tilegpu.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def TileGPU_FenceOp : TileGPU_Op<"fence"> {
  let summary = "order memory between proxies or publish mbarrier inits";
  let description = [{
    `async_proxy`: this thread's generic-proxy shared-memory writes (stores,
    cp.async that has landed) become visible to the async proxy (wgmma, TMA
    stores) — `fence.proxy.async.shared::cta`. `mbarrier_init`: mbarrier
    initializations become visible to other threads and the async proxy.

    Example:
    ```mlir
    tilegpu.fence async_proxy
    ```
  }];
  let arguments = (ins TileGPU_Fence:$kind);
  let assemblyFormat = "$kind attr-dict";
}

#endif // TILEC_DIALECT_TILEGPU_TILEGPUOPS_TD
