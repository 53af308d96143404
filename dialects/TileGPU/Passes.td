//===- Passes.td - passes on and out of the tilegpu dialect -*- tablegen -*-===//

#ifndef TILEC_TILEGPU_PASSES_TD
#define TILEC_TILEGPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "::mlir::ModuleOp"> {
  let summary = "Assign a distributed layout to every tile: tile IR to tilegpu IR";
  let description = [{
    Runs layout assignment (`LayoutAssignment`: mma accumulator and operand
    layouts for dots, slices for reductions, blocked layouts elsewhere) on
    each kernel and writes the result into the IR: every tile's tensor type
    gets its layout as a `#tilegpu.linear` encoding, and where an op's types
    tie an operand to another layout than the one it has (operands of
    elementwise ops, a dot's accumulator, values carried by loops, pointers
    and values of scattered loads and stores), a `tilegpu.convert_layout` is
    inserted right before it. A dot's A and B keep their layouts: how it
    reads them (registers, shared memory, wgmma descriptors) is the dot
    lowering's choice. Kernels whose tiles already carry layouts are left as
    they are, so the pass is idempotent and `tilec --emit=gpu` output can be
    compiled again.
  }];
  let options = [
    Option<"numWarps", "num-warps", "int64_t", /*default=*/"4",
           "Warps per program (threads per block / 32)">,
    Option<"warpgroupColumns", "warpgroup-columns", "bool", /*default=*/"false",
           "A dot whose M fills whole warpgroups but fewer than the program's puts "
           "the others along N, each on its own block of columns (the layout of "
           "wgmma on column blocks, #tilegpu.wgmma<..., columns = C>); for "
           "tilegpu-lower-dots with wgmma">
  ];
  let dependentDialects = ["::tilec::tilegpu::TileGPUDialect"];
}

def TileGPULowerDots : Pass<"tilegpu-lower-dots", "::mlir::ModuleOp"> {
  let summary = "Choose wgmma or mma.sync for each tile.dot, and where its operands come from";
  let description = [{
    Replaces each `tile.dot` (on tiles with layouts, its accumulator in an
    mma.sync layout) by the tensor-core op that runs it:

    * on sm_90a with `wgmma`, when the accumulator is the wgmma layout (all
      warps along M, whole warpgroups; or on column blocks, each warpgroup
      its own N / C columns), each warpgroup's N is at most 256 and B's rows
      are a multiple of 128 bytes: B is stored into a 128-byte-swizzled
      buffer right after it is made (once for every dot that reads it; a
      transposed B, `tile.trans`, is stored untransposed and read with
      `transpose_b`; column blocks of 64 or 32 bytes of an N-major B get a
      buffer of that swizzle), A stays in registers in the wgmma operand
      layout — or, a transposed A that is computed (not loaded), is stored
      untransposed by stmatrix (`local_store matrix`) and read with
      `transpose_a` —, and `tilegpu.warpgroup_dot` is followed by a
      `tilegpu.dot_wait` with nothing pending;
    * otherwise `tilegpu.mma` (mma.sync m16n8k16) with A and B in registers
      in the operand layouts of the accumulator's warp grid (an accumulator
      on column blocks converted to it and back).

    An operand produced by a `tile.load_block` or `tilegpu.local_load` (also
    through reshapes that only add or drop unit dimensions, and transposes)
    that only dots read is retyped to the layout the instruction wants (each
    thread reads its own fragment); others get a `tilegpu.convert_layout`.
    With `a-in-shared`, a wgmma dot in a loop whose A is made outside it
    (attention's Q) reads A by descriptor from a 128-byte-swizzled buffer
    stored once before the loop (rows of a multiple of 128 bytes), which
    frees its registers for the loop; mma.sync dots keep A in registers.
    Options not given come from the module's `tilec.target` (`arch`,
    `wgmma`, `a_in_shared`); without either, sm_80.
  }];
  let options = [
    Option<"arch", "arch", "std::string", /*default=*/"",
           "sm_80 or sm_90a (default: tilec.target's, else sm_80)">,
    Option<"wgmma", "wgmma", "bool", /*default=*/"false",
           "On sm_90a, run dots that fit as wgmma (default: tilec.target's)">,
    Option<"aInShared", "a-in-shared", "bool", /*default=*/"false",
           "wgmma dots read a loop-invariant A from a swizzled buffer stored "
           "once before the loop (default: tilec.target's a_in_shared)">
  ];
}

def TileGPUPipelineStreams : Pass<"tilegpu-pipeline-streams", "::mlir::ModuleOp"> {
  let summary = "Stream a loop's block loads through N-slot rings (cp.async, or TMA on mbarriers)";
  let description = [{
    For each `scf.for` (i32 induction variable), each `tile.load_block` of
    its body whose descriptor is made before the loop on a kernel argument,
    whose coordinates are pure functions of the induction variable and
    values from outside the loop, whose block has rows of a multiple of 16
    bytes and no unit dimension (or whose only reader is a reshape that
    drops them), becomes a ring of `stages` shared slots (made right before
    the loop) filled by `tilegpu.async_copy` `stages - 1` iterations ahead:

    * before the loop, iterations 0 .. stages - 2 are issued, one commit
      group each (copies past the upper bound are skipped, the group kept);
    * at the top of the body, `async_wait` leaves at most `stages - 2`
      groups pending (this iteration's has landed), then iteration
      i + stages - 1 is issued into slot (i + stages - 1) mod stages and
      committed;
    * the load's readers read slot i mod stages: through a
      `tilegpu.local_load` in the load's layout (a padded<16> ring), or,
      when the load only filled a shared buffer used only in the loop (a
      wgmma's B from tilegpu-lower-dots), the slot replaces that buffer
      (and the ring takes its encoding);
    * after the loop, everything is waited for.

    cp.async needs the tensor contiguous along its last dimension with
    16-byte aligned rows: the descriptors' base arguments are recorded in
    the kernel's `tilec.aligned_args`, which the launch metadata marks and
    the runtime checks. Barriers come from tilegpu-insert-barriers.
    `stages` not given comes from `tilec.target`'s `pipeline_stages`;
    below 2 nothing changes.

    With `tma` (sm_90a), a loop whose streams all fill wgmma buffers with
    128-byte swizzling is filled by TMA instead: each stream's descriptor
    gets a tensor map, a new trailing kernel argument
    (`!tilegpu.tensor_map`, recorded in the kernel's `tilec.tensor_maps`
    as `{tensor = <argument of the descriptor's base>, box, swizzle}` for
    the runtime to make), the ring an array of `stages` "full" mbarriers
    made before the loop. One thread announces the iteration's bytes on
    the slot's barrier (`mbarrier_arrive ... expect_tx`) and warp 0 issues
    the `tma_load`s; each iteration waits for its slot's phase
    (`mbarrier_wait`, phase = iteration / stages) where cp.async would
    wait for its group. Nothing is in flight after the loop (every issued
    copy is one a later iteration waits for). In a kernel of two or more
    warpgroups (`nvvm.reqntid`), every thread arrives on the slot's "empty" mbarrier at
    the end of its iteration and warp 0 waits for the previous round's
    phase there before refilling the slot; the ring is marked
    `tilegpu.released_by_mbarrier`, so tilegpu-insert-barriers ends the
    iterations without a block barrier. Other loops keep cp.async.

    With `tma` and `warp-specialize`, when every streamed loop is directly
    in the kernel's body and all its streams take TMA (and the producer
    can recompute the loops' bounds and coordinates: pure ops on kernel
    arguments and grid queries), the kernel body becomes the second role
    of a `tilegpu.warp_specialize` (the consumers: the kernel's warps,
    `consumer-registers` each) after a producer warpgroup
    (`producer-registers`) whose warp 0 runs each streamed loop's
    iterations: wait until the slot is free (the slot's "empty" mbarrier,
    which every consumer thread arrives on after the iteration's reads),
    announce the bytes on its "full" barrier, issue the copies. Consumers
    only wait for "full". The rings and barriers are made before the roles;
    `nvvm.reqntid` grows by the producer's 128 threads.

    In a persistent kernel (tile-persistent-grid) the streamed loops may
    instead sit together in one loop directly in the body (the loop over
    the tiles, whose bounds the producer can compute). Both roles then run
    that loop, the rings' iteration count carried from tile to tile, and
    the blocks the tile loop itself loads into swizzled wgmma buffers (Q,
    a block read after the key loops) are streamed too, on one-slot rings
    with their own full/empty barriers: the producer loads the next tile's
    as soon as the consumers arrive on "empty" right after the block's last
    reader (a wgmma's reads last until its wait), and the consumers wait on
    "full" just before the first. With `tile-slots=2` the blocks read from
    the tile's start (Q) get two slots: the producer loads the next tile's
    while the consumers still read this one's. Their coordinates may divide by kernel
    arguments (ops without memory effects that the consumers run anyway).
    On a kernel marked `tilec.tile_counter` both tile loops also count
    their tiles in a last iteration argument (0, then + 1), from which the
    tile rings take their phases: tilegpu-claim-tiles then replaces the
    loops' steps by claims.
  }];
  let options = [
    Option<"stages", "stages", "int64_t", /*default=*/"-1",
           "Slots per ring, 2-8; below 2 off (default: tilec.target's pipeline_stages)">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "Fill rings of wgmma buffers by TMA onto mbarriers (or tilec.target's tma)">,
    Option<"warpSpecialize", "warp-specialize", "bool", /*default=*/"false",
           "With tma: a producer warpgroup issues the copies (or tilec.target's "
           "warp_specialize)">,
    Option<"tileSlots", "tile-slots", "int64_t", /*default=*/"-1",
           "Slots of a persistent kernel's rings for the blocks a tile reads from its start "
           "(Q), 1-2 (default: tilec.target's tile_slots, else 1)">,
    Option<"producerRegisters", "producer-registers", "int32_t", /*default=*/"24",
           "setmaxnreg of the producer warpgroup (multiple of 8 in [24, 256])">,
    Option<"consumerRegisters", "consumer-registers", "int32_t", /*default=*/"240",
           "setmaxnreg of the consumer warps (multiple of 8 in [24, 256])">
  ];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect"];
}

def TileGPUTMAStores : Pass<"tilegpu-tma-stores", "::mlir::ModuleOp"> {
  let summary = "Write a kernel's closing block stores through shared memory and TMA";
  let description = [{
    A `tile.store_block` that every thread of a kernel, or of a warp role,
    runs once (directly in the kernel's body or the role's, or directly in
    a loop there: a persistent kernel's tile loop; not in a branch), of a
    tile that is 2-D but for unit dimensions, whose rows
    are whole 128-byte column blocks and at most 256 of them, through a
    descriptor of a tensor argument as the runtime passes it (sizes and
    strides its own arguments, i32 coordinates), becomes: a 128-byte-swizzled
    `tilegpu.alloc` (for f32 with `f32-staging-bytes=32`, 32-byte column
    blocks: a warp's 8-byte stores of an accumulator's column pairs then
    meet no bank conflict), a `local_store` of the tile, and in the group's first
    warp a `tma_store` (one box per column block; TMA writes no element
    outside the tensor, so ragged edges need no masks) and a
    `tma_store_wait` that keeps the kernel alive until the copy has read
    the buffer. In a tile loop that wait moves before the next tile's
    writes instead (the storing warp waits, then a barrier of the group),
    the last copy is waited for after the loop, and the pass leaves the
    store alone unless the buffer fits beside every other buffer of the
    kernel (in the loop their live ranges do not end). The fence and
    barrier between the shared stores and the copy come from
    tilegpu-insert-barriers. The tensor maps are new
    trailing arguments in `tilec.tensor_maps`; their tensors join
    `tilec.aligned_args` (the runtime checks TMA's rules at launch). This
    is FlashAttention-3's epilogue: per thread a few shared stores instead
    of one predicated global store per pair of columns. A
    `tile.atomic_add_block` (f32, f16, bf16) directly in such a loop goes
    the same way as `tma_store add` (the fused attention backward's dQ
    share of each step); adds of one descriptor in sibling loops share one
    buffer. Without a barrier ahead of the write in the loop body, the wait
    goes before the body's first shared store and tilegpu-insert-barriers
    orders the write after it.
  }];
  let dependentDialects = ["::mlir::NVVM::NVVMDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
  let options = [
    Option<"f32StagingBytes", "f32-staging-bytes", "unsigned", /*default=*/"128",
           "Column-block bytes (swizzle, TMA box row) of a buffer that stages an f32 "
           "tile: 128, or 32 (a warp's stores of an accumulator's column pairs meet no "
           "bank conflict)">,
  ];
}

def TileGPULowerConversions : Pass<"tilegpu-lower-conversions", "::mlir::ModuleOp"> {
  let summary = "Make every layout change one that lowers: within threads, or through shared memory";
  let description = [{
    Four steps, so that convert-tilegpu-to-nvvm lowers every layout change
    of the kernel:

    * a `tile.reduce` along the last dimension whose warps split that axis
      runs on its source converted to a blocked layout with the warps along
      the other dimensions, and its result is converted back;
    * a `tile.broadcast`, `tile.expand_dims` or `tile.trans` whose result
      layout is not what its source's threads can produce gets its source
      converted to the layout that is (the result's, collapsed, without the
      unit dimension, transposed back);
    * conversions of cheap values are replaced by making the value again in
      the wanted layout (a splat, an iota, a broadcast or expand_dims with
      its operand converted instead, an elementwise arith or math op used
      only there or computed from splats, iotas and constants alone), and
      a tile just read from shared memory (`tilegpu.local_load`, e.g. a
      ring slot of row statistics) is read again in the wanted layout at
      the same point, so still before the slot is released;
    * a conversion that still moves data between threads becomes a
      `tilegpu.local_store` into a scratch buffer allocated right before it
      (padded<0> rows; i1 tiles stored as i8) and a `tilegpu.local_load` in
      the result's layout. tilegpu-insert-barriers orders the two.
  }];
}

def TileGPUSinkDotWaits : Pass<"tilegpu-sink-dot-waits", "::mlir::ModuleOp"> {
  let summary = "Chain wgmmas that sum over parts of K; wait for each where its accumulators are first read";
  let description = [{
    First drops each single-token `tilegpu.dot_wait` whose one result is
    only the `acc` of a later `warpgroup_dot` of its block (a sum over K in
    parts, as S = Q·Kᵀ over a head dim's column tiles), unless an op in
    between writes the first dot's buffers or arrives on a barrier: that
    dot chains onto the token instead, so its steps issue right behind the
    first ones. Then moves each single-token `tilegpu.dot_wait` down its block to just before
    the first op that reads its results (or holds a reader in its regions),
    or the block's terminator, so the ops in between (another row group's
    softmax, the next dot's issue) overlap the tensor cores' work. Its
    `pending` becomes the number of `warpgroup_dot`s issued between the dot
    and its new place (wgmma groups complete in order), or 0 when some are
    nested in regions there. A wait never moves past an op that writes a
    shared buffer its dot reads. Run before tilegpu-insert-barriers (the
    wgmma's reads end at its wait).

    With `wait-before-next-dot`, a wait does not move past the issue of a
    later `warpgroup_dot`: that dot (attention's P·V beside the next Q·Kᵀ)
    issues once the awaited one is done, and ptxas then keeps the ops
    between that dot and its own wait (the softmax) before the wait —
    otherwise its latency model puts the second wait right after the first
    and the softmax after both (session 33, in SASS).

    With `keep-work-above-waits`, last, each wait whose dot is in its block
    takes as `after` values the small f32 tiles (at most 8 registers a
    thread per wait) computed between the dot and the wait that the loop
    body's scf.yield (of an scf.for or scf.while) carries to the next
    iteration, unless an earlier wait of the block has
    them: the overlapped loop's row sums and maxima, which every exp2 of the
    softmax feeds. Its lowering keeps their computation above the
    `wgmma.wait_group` in ptxas's schedule as well (session 48, in SASS).
  }];
  let options = [
    Option<"waitBeforeNextDot", "wait-before-next-dot", "bool", /*default=*/"false",
           "Keep each wait before the next warpgroup_dot's issue">,
    Option<"keepWorkAboveWaits", "keep-work-above-waits", "bool", /*default=*/"false",
           "Give each wait the small f32 tiles computed between its dot and it that "
           "the loop yields as `after` values">,
  ];
}

def TileGPUAllocateSharedMemory : Pass<"tilegpu-allocate-shared-memory", "::mlir::ModuleOp"> {
  let summary = "Give every shared buffer and mbarrier array an offset, reusing dead space";
  let description = [{
    Sets `offset` on each `tilegpu.alloc` and `tilegpu.mbarrier_create` of
    each kernel (`func.func` or `llvm.func`). A buffer lives from its
    definition to its last use, measured in the kernel's body or, for a
    buffer made in a warp role, in the role's body (a use nested in a region
    counts at the op of that body that holds it, so a buffer used in a loop
    lives through the whole loop; a wgmma operand lives to its token's
    `dot_wait`, a TMA store's source to the end of the body); buffers whose
    live ranges do not overlap share bytes — in a role only when a barrier
    of the whole role lies between them, since its threads do not run in
    step. Buffers of different roles never share bytes.
    Placement is first fit in program order, aligned to 1024 bytes for
    swizzled buffers (wgmma descriptors and TMA need it), 128 for padded<0>
    ones (a TMA box without swizzle may fill them), 16 for other padded ones
    and 8 for mbarriers. Records the total as `tilegpu.shared_bytes` on the
    kernel. Offsets already set are kept and reserved.
  }];
}

def TileGPUInsertBarriers : Pass<"tilegpu-insert-barriers", "::mlir::ModuleOp"> {
  let summary = "Order shared-memory writes before the reads of other threads and proxies";
  let description = [{
    Walks each kernel in program order, tracking the shared buffers (through
    slot views, to their `tilegpu.alloc`) that this thread has written with
    `local_store` or `async_copy` and not yet published, and those it has
    read with `local_load` (or a wgmma has, up to its `dot_wait`). A
    `tma_load` counts as a write only against earlier reads (its data is
    visible to each thread that waits on its mbarrier). Before an op that reads a written buffer from
    another thread or proxy, it inserts what makes the writes visible:
    `fence async_proxy` when the reader is the async proxy (`warpgroup_dot`
    operands, `tma_store` sources), then a barrier; before a write to a
    buffer that other threads may still be reading (`local_load` before it),
    a barrier. Outside warp roles the barrier is `tilegpu.barrier`; inside
    role `i` it is the named barrier `i + 1` over the role's threads
    (`barrier_sync`). Accesses still pending at the end of a loop body are
    synchronized there when the next iteration touches those buffers, else
    right after the loop; at the end of a branch or role they are published
    there; barriers and fences already in the IR count, so the pass adds
    nothing to a kernel that is synchronized (running it twice changes
    nothing).
  }];
}

def TileGPUPingPong : Pass<"tilegpu-ping-pong", "::mlir::ModuleOp"> {
  let summary = "Make a role's warpgroups take turns issuing each iteration's first dots";
  let description = [{
    In each role of a `tilegpu.warp_specialize` that runs several
    warpgroups, every loop whose body issues `warpgroup_dot`s gets turns:
    the iteration's opening dots (the first `warpgroup_dot` and those
    issued after it before any wait, barrier or region) are preceded by
    `barrier_sync` on the warpgroup's own named barrier and followed by
    `barrier_arrive` on the next warpgroup's (`tilegpu.warpgroup_id` picks
    them; 256 threads each), so warpgroup w's dots queue on the tensor
    cores after warpgroup w - 1's and one warpgroup's softmax runs while
    the next one's dots execute (FlashAttention-3's ping-pong). Before the
    role's first turn the last warpgroup arrives at warpgroup 0's barrier;
    at the role's end warpgroup 0 waits for the last turn's arrival, so the
    barriers end balanced. The barriers are numbered after the roles' own
    (1..R, tilegpu-insert-barriers): R + 1 + w. A role with one warpgroup,
    or too many for the 16 named barriers, is left as it is with a warning;
    a role that already takes turns is left as it is. Run after
    tilegpu-insert-barriers (which counts only a role's own barrier as one).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileGPUClaimTiles : Pass<"tilegpu-claim-tiles", "::mlir::ModuleOp"> {
  let summary = "Persistent programs claim their tiles from a counter instead of a static order";
  let description = [{
    On a warp-specialized persistent kernel marked `tilec.tile_counter`
    (tile-persistent-grid's tile-counter; tilegpu-pipeline-streams made
    both roles' tile loops count their tiles): the producer's tile loop
    becomes an `scf.while` that starts from its program id and takes each
    next tile index from `tilegpu.claim_tile` (plus the number of
    programs), handing every index, and one past the last tile at the end,
    to the consumers through a two-slot shared buffer (`scalar_store` by
    thread 0, then a full mbarrier; the consumers wait, `scalar_load`,
    arrive on an empty one); the consumers' tile loop becomes an
    `scf.while` over the indices handed to them. Programs that drew short
    tiles (a causal mask's last query blocks) take more of them, so all
    finish together (FlashAttention-3's dynamic scheduler). The counter is
    a global of the module, reset by the launch's last claim: launches of
    one loaded kernel must not overlap. A marked kernel that was not
    warp-specialized keeps its static order (a warning). Run after the
    passes that take tile loops as scf.for (tma-stores, insert-barriers,
    ping-pong), before allocate-shared-memory.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def ConvertTileGPUToNVVM : Pass<"convert-tilegpu-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower tilegpu ops to the NVVM and LLVM dialects, op by op";
  let description = [{
    Applies the tilegpu conversion patterns (`populateTileGPUToNVVMPatterns`):
    shared buffers and mbarriers become `!llvm.ptr<3>` into the kernel's
    dynamic shared memory (`@tilec_smem`, offsets from
    `tilegpu-allocate-shared-memory`), tensor maps generic pointers to the
    kernel parameter, distributed tiles LLVM structs of their registers;
    barriers, fences, mbarriers, cp.async groups, TMA, mma.sync, wgmma and
    its waits, and register budgets become their NVVM ops; tile constants and
    elementwise arith/math on tiles of one layout become one scalar op per
    register. Kernel signatures, calls, returns and scf loops and branches
    that carry tilegpu values take the converted types; the rest (scalar
    arith, scf, func) is left for the upstream conversions.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

#endif // TILEC_TILEGPU_PASSES_TD
