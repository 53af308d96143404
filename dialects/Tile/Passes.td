//===- Passes.td - tilec's passes --------------------------*- tablegen -*-===//

#ifndef TILEC_PASSES_TD
#define TILEC_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileDecomposeOnlineSoftmax : Pass<"tile-decompose-online-softmax"> {
  let summary = "Rewrite tile.online_softmax into reductions and elementwise math";
  let description = [{
    Replaces each `tile.online_softmax` by its definition on tiles:
    `t = s * (scale * log2 e)`, `m_new = max(m, rowmax(t))`,
    `p = exp2(t - m_new)`, `alpha = exp2(m - m_new)`, with `p = 0` and
    `alpha = 1` on rows whose `m_new` is `-inf`. The GPU lowering then needs
    only reductions and elementwise ops; the interpreter keeps the op whole.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

def TileHoistRowTerms : Pass<"tile-hoist-row-terms"> {
  let summary = "Score terms that are the same along a row leave an online softmax loop";
  let description = [{
    Softmax does not see a term that is the same in every score of a row:
    with `s = s' + spread(r)`, `online_softmax(s, m)` gives the `p` and
    `alpha` of `online_softmax(s', m - r * t)` (`t` the op's log2 scale) and
    a running maximum `r * t` lower. So where an `scf.for` carries the
    maximum of its `tile.online_softmax`, the loop runs on `s'`, its
    maximum enters as `m - r * t` and leaves as `m' + r * t`: `lse` and
    everything after the loop see what they saw before. A `-inf` start (no
    score seen) enters as it is, and a loop whose maximum comes from a loop
    shifted by the same offset takes that loop's `m'` (one shift after the
    last loop; a constant start keeps the maximum in the layout of the row
    reductions).

    Matched through a mask's `arith.select` with `-inf` elsewhere to an
    `arith.addf` of the scores and a term that is either one value per row,
    `broadcast(expand_dims(r, 1))`, or ALiBi's
    `splat(c) * cast(spread(keys, 0) - spread(rows, 1))` with rows
    `splat(k) + iota`: there `c * float(keys - k)`, made once per column,
    stays and `c * float(k - rows)` leaves (the same integers, so both
    parts are as exact as the whole). `r`, `c`, `rows` and `k` must be the
    same in every iteration; ops in the loop that make them from such
    values move before it. The loop's maximum must be read by the softmax
    alone, and the new one only handed to the next iteration.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileMergeUpperBounds : Pass<"tile-merge-upper-bounds"> {
  let summary = "One compare per element where a mask bounds one index twice from above";
  let description = [{
    A mask that keeps index `c` below a bound the whole tile shares and at
    most at a bound of the other index (attention's keys before `seq_k`,
    and a causal mask's `key <= query + offset`) compares every element
    twice and ands the two. Both become one compare against one bound per
    row (or column), as FlashAttention-3 masks:

      c < X && c <= Y   =>   c < (Y < X ? Y + 1 : X)
      c < X && c < Y    =>   c < min(X, Y)

    exact for every i32 (`Y + 1` is taken only where `Y < X`, so it does
    not wrap). Matched in a conjunction (`arith.andi`, nested) of 2-D i1
    tiles: `tile.broadcast(tile.expand_dims(c < splat(X), a))` beside
    `broadcast(expand_dims(c, a)) <= broadcast(Y)` (either order of
    operands, `<` or `<=`), `Y` of size 1 along the axis `c` runs along,
    `c` along the columns (a bound per row: GPU layouts give a thread few
    rows and many columns, so bounds per column would cost more to make
    than the merge saves).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TilePrefetchLoads : Pass<"tile-prefetch-loads"> {
  let summary = "Load the next iteration's blocks one iteration ahead";
  let description = [{
    Software pipelining by one stage through loop-carried values: a
    `tile.load_block` in an `scf.for` body whose descriptor is loop-invariant
    and whose offsets are loop-invariant or the induction variable is issued
    for `iv + step` at the top of the body and handed to the next iteration;
    the first block is loaded before the loop. The load's latency then
    overlaps the iteration's compute. The extra load after the last
    iteration is out of range, so it reads padding and touches no memory.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TilePersistentGrid : Pass<"tile-persistent-grid", "::mlir::ModuleOp"> {
  let summary = "Run each kernel as a persistent grid: programs loop over the tiles";
  let description = [{
    Every kernel (a `func.func` with a body and no results) takes three more
    `i32` arguments, the logical grid (programs along x, y and z, what the
    kernel was written for), and its body becomes the body of one loop over
    the logical programs, x fastest:

      scf.for %t = program_id(0) to gx * gy * gz step num_programs(0)
        x = t mod gx, y = (t / gx) mod gy, z = t / (gx * gy)

    A kernel with `tilec.longest_first_axis = a` (its programs along axis
    `a` come longest first: a causal mask's query blocks, last first) has
    that axis slowest instead, within sections of the other two axes'
    indices (attention's heads) taken one after the other: `width` =
    min(their count, ceil(rounds-per-section × num_programs(0) / g_a))
    indices a section (the last may be narrower), so that the programs
    running at once read the keys and values of a few heads rather than a
    round's worth (at N = 4k, 132 heads' K and V are five times the L2).
    Inside a section every other full round of num_programs(0) tiles,
    counted from the section's start, is taken backwards (u = round end -
    1 - lane), so that the program with a round's longest tile gets the
    next round's shortest; a section's last, partial round (its shortest
    tiles) goes to the programs after it. rounds-per-section = 0 makes one
    section of all. Measured on the causal forward (H100, d = 128,
    bench/RESULTS.md session 31): two rounds a section 1.2-1.5x one section
    at N = 1k-4k, 1.07x at 8k, 0.99x at 16k; sections whose rounds ran on across them
    (the first try) lost up to 33 % at 16k to uneven shares of long tiles.

    with `tile.program_id` / `tile.num_programs` along an axis replaced by
    x, y, z and gx, gy, gz. The launch then needs only as many programs as
    fit on the GPU at once (the runtime launches min(gx·gy·gz, SMs ×
    programs per SM) along x and passes the logical grid); a program's next
    tile starts while the others finish theirs, and with warp
    specialization the producer fills the rings for the next tile during
    this one's epilogue. The kernel gets `tilec.persistent`.

    With `tile-counter`, tiles are taken in the order of t (no backward
    rounds: a counter hands each next tile to whichever program is free, so
    long and short tiles pair up by themselves) and the kernel gets
    `tilec.tile_counter`: with warp specialization, tilegpu-claim-tiles
    replaces the loop's static steps by claims on a counter. Without it the
    loop runs as written (a static order).
  }];
  let options = [
    Option<"roundsPerSection", "rounds-per-section", "unsigned", /*default=*/"2",
           "With tilec.longest_first_axis: tiles of a section of the other "
           "axes' indices, in rounds of num_programs(0) (0: one section of all; "
           "1 leaves each section one round, whose tiles pair with none)">,
    Option<"tileCounter", "tile-counter", "bool", /*default=*/"false",
           "The programs will take their tiles from a counter (tilegpu-claim-tiles, "
           "with warp specialization): tiles in order t = 0, 1, ... (a longest-first "
           "axis slowest inside each section, no backward rounds) and the kernel "
           "marked tilec.tile_counter">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileToLLVM : Pass<"tile-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lower tile kernels to per-thread LLVM + NVVM code";
  let description = [{
    Replaces every `func.func` kernel by an `llvm.func` marked `nvvm.kernel`
    that computes one program instance per thread block: each tile is held in
    registers according to its assigned layout, data crosses threads through
    shared memory or warp shuffles, `tile.dot` becomes `mma.sync`
    m16n8k16 (bf16/f16 in, f32 accumulate), or with `wgmma` (sm_90a)
    `wgmma.mma_async` m64nNk16 where its operands allow. The result still contains
    arith, math, scf and cf on scalars; the upstream conversions to the LLVM
    dialect finish the job. Records `tilec.num_warps` and
    `tilec.shared_bytes` on each kernel.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per program (threads per block / 32)">,
    Option<"assumeAligned", "assume-aligned", "bool", /*default=*/"false",
           "Assume every tensor argument is contiguous and 16-byte aligned along its "
           "last dimension (the runtime checks it): block accesses use 16-byte "
           "vectors with no scalar fallback">,
    Option<"pipelineStages", "pipeline-stages", "int64_t", /*default=*/"2",
           "Shared-memory slots per streamed block load: a loop's block loads that "
           "feed only the B operand of a tile.dot are copied with cp.async this "
           "many - 1 iterations ahead (needs assume-aligned; below 2: off)">,
    Option<"aInShared", "a-in-shared", "bool", /*default=*/"false",
           "Keep loop-invariant A operands of tile.dot (Q in attention) in shared "
           "memory, read per fragment with ldmatrix, instead of in registers "
           "through the loop">,
    Option<"minBlocksPerSM", "min-blocks-per-sm", "int64_t", /*default=*/"0",
           "Ask ptxas to fit this many programs on one SM (registers per thread at "
           "most 64K / (threads · this)); 0: no limit">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "sm_90a: run tile.dot as warpgroup wgmma.mma_async where it fits (4 warps, "
           "M a multiple of 64, B streamed through shared memory in 128-byte-swizzled "
           "slots, A resident there the same way or in registers); else mma.sync">
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::math::MathDialect"];
}

#endif // TILEC_PASSES_TD
