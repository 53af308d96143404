//===- TileToLLVMPipeline.cpp - block loads streamed by cp.async -----------===//
//
// A block load in a loop body whose only use is the B operand of a tile.dot
// (K of Q·Kᵀ, V of P·V, B of a matmul) never needs registers: its block goes
// from global to shared memory with cp.async and the dot reads it from there
// with ldmatrix. Each such load gets a ring of `stages` shared-memory slots;
// iteration i's block is issued in iteration i - (stages - 1), so copies of
// later blocks overlap the math of this one.
//
// Per iteration and stream, in the order the dots read the streams:
//   cp.async.wait_group  (this iteration's block has landed for this thread)
//   bar.sync             (... for every thread; everyone is done with the
//                         slot read one iteration ago)
//   cp.async of the block stages - 1 iterations ahead into that freed slot
//   ldmatrix + mma.sync from this iteration's slot
// Every issue is one commit group, also when it copies nothing (past the
// loop's end), so the number of groups younger than a block is a constant:
// (stages - 1) · streams - 1.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "llvm/Support/MathExtras.h"

namespace tilec::lowering {

/// The shape with unit dimensions dropped.
static SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t d : shape)
    if (d != 1)
      dims.push_back(d);
  return dims;
}

/// A block of rows x cols 2-byte elements copied by cp.async into shared
/// memory: row-major with rows padded by 16 bytes (conflict-free ldmatrix;
/// the padding stagedShape gives staged operands), or in wgmma's swizzled
/// layout (StagedOperand::swizzled), whose 128-byte rows need no padding.
static Stream blockCopy(tile::LoadBlockOp load, ArrayRef<tile::DotOp> readers,
                        ArrayRef<int64_t> dims, ArrayRef<bool> kContiguous,
                        ArrayRef<Operation *> views,
                        bool swizzled) {
  Stream s;
  s.load = load;
  s.readers.assign(readers.begin(), readers.end());
  s.rows = dims[0];
  s.cols = dims[1];
  s.pitch = swizzled ? dims[1] : dims[1] + 8;
  s.kContiguous.assign(kContiguous.begin(), kContiguous.end());
  s.swizzled = swizzled;
  s.slotBytes = s.rows * s.pitch * 2;
  s.ringOffset = 0;
  s.views.assign(views.begin(), views.end());
  return s;
}

/// Swizzled blocks are 1024-byte aligned (one 8-row group of 128-byte rows).
static constexpr int64_t kSwizzleAlignment = 1024;

bool KernelLowering::swizzleFits(int64_t rows, int64_t cols) {
  // Whole 64-element column blocks; each pass of the threads covers whole
  // rows and a multiple of 8 of them, so a pass moves the row's swizzle
  // pattern by nothing and its address by an immediate.
  const int64_t threads = 32 * layouts.warps(), chunksPerRow = cols / 8;
  return wgmma && cols % 64 == 0 && threads % chunksPerRow == 0 &&
         (threads / chunksPerRow) % 8 == 0 && rows % (threads / chunksPerRow) == 0;
}

SmallVector<Stream> KernelLowering::planStreams(scf::ForOp loop) {
  SmallVector<Stream> streams = findStreams(loop);
  int64_t bytes = 0;
  for (const Stream &s : streams) {
    streamedOps.insert(s.load);
    streamedOps.insert(s.views.begin(), s.views.end());
    bytes = s.ringOffset + pipelineStages * s.slotBytes;
  }
  ringBytes = std::max(ringBytes, bytes);
  return streams;
}

SmallVector<Stream> KernelLowering::findStreams(scf::ForOp loop) {
  SmallVector<Stream> streams;
  if (!assumeAligned || pipelineStages < 2)
    return streams;
  Block *body = loop.getBody();
  for (auto load : body->getOps<tile::LoadBlockOp>()) {
    auto type = cast<RankedTensorType>(load.getType());
    Type element = type.getElementType();
    if (!(element.isBF16() || element.isF16()) ||
        load.getPadding() != tile::PaddingOption::zero || !descriptors.count(load.getDesc()) ||
        !loop.isDefinedOutsideOfLoop(load.getDesc()))
      continue;
    // Offsets: the induction variable or loop invariants; the innermost one
    // invariant (its alignment is checked once, before the loop).
    bool offsetsOk = loop.isDefinedOutsideOfLoop(load.getOffsets().back());
    for (Value offset : load.getOffsets())
      offsetsOk &= offset == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(offset);
    SmallVector<int64_t> dims = nonUnitDims(type.getShape());
    if (!offsetsOk || dims.size() != 2 || type.getShape().back() != dims[1] ||
        dims[1] % 8 != 0)
      continue;

    // Follow reshapes of unit dimensions and 2-d transposes to the dots of
    // the body that read the block as their B operand: every use must end
    // there (two dots when the program's rows are split into groups that
    // share K and V; Qᵀ and Q in the attention backward's dK/dV, one reading
    // it transposed).
    SmallVector<Operation *> views;
    SmallVector<std::pair<tile::DotOp, bool>> reads; // (dot, reads it transposed)
    SmallVector<std::pair<Value, bool>> pending = {{load.getResult(), false}};
    bool onlyDots = true;
    while (onlyDots && !pending.empty()) {
      auto [value, transposed] = pending.pop_back_val();
      onlyDots = !value.use_empty();
      for (OpOperand &use : value.getUses()) {
        Operation *user = use.getOwner();
        auto reshape = dyn_cast<tile::ReshapeOp>(user);
        auto trans = dyn_cast<tile::TransOp>(user);
        auto dot = dyn_cast<tile::DotOp>(user);
        onlyDots &= user->getBlock() == body;
        if (reshape && nonUnitDims(reshape.getType().getShape()) ==
                           nonUnitDims(cast<RankedTensorType>(value.getType()).getShape())) {
          pending.push_back({reshape.getResult(), transposed});
        } else if (trans && trans.getType().getRank() == 2) {
          pending.push_back({trans.getResult(), !transposed});
        } else if (dot && use.getOperandNumber() == 1 &&
                   cast<RankedTensorType>(value.getType()).getRank() == 2) {
          reads.push_back({dot, transposed});
          continue;
        } else {
          onlyDots = false;
        }
        views.push_back(user);
      }
    }
    if (!onlyDots || reads.empty())
      continue;
    llvm::sort(reads, [](auto &x, auto &y) { return x.first->isBeforeInBlock(y.first); });
    SmallVector<tile::DotOp> readers;
    SmallVector<bool> kContiguous;
    for (auto [dot, transposed] : reads) {
      readers.push_back(dot);
      kContiguous.push_back(transposed);
    }
    // Only blocks the dots would stage anyway (not ones already in their layout).
    bool staged = true, allWgmma = true;
    for (tile::DotOp dot : readers) {
      const LinearLayout *bLayout = layouts.lookup(dot.getB());
      int64_t m = dot.getType().getDimSize(0), n = dot.getType().getDimSize(1);
      int64_t k = dot.getA().getType().getDimSize(1);
      LinearLayout wanted = layouts.dotOperandB(m, n, k);
      staged &= bLayout && *bLayout != wanted &&
                !tilec::registerLocalMove(*bLayout, wanted, [](const Coords &c) { return c; });
      allWgmma &= wgmmaShape(dot);
    }
    if (!staged)
      continue;

    bool swizzled = allWgmma && swizzleFits(dims[0], dims[1]);
    streams.push_back(blockCopy(load, readers, dims, kContiguous, views, swizzled));
  }
  llvm::sort(streams, [](const Stream &x, const Stream &y) {
    return x.readers.front()->isBeforeInBlock(y.readers.front());
  });
  int64_t offset = 0;
  for (Stream &s : streams) {
    if (s.swizzled)
      offset = llvm::alignTo(offset, kSwizzleAlignment);
    s.ringOffset = offset;
    offset += pipelineStages * s.slotBytes;
  }
  return streams;
}

scf::ForOp KernelLowering::nextStreamingLoop(scf::ForOp loop) {
  auto next = dyn_cast_or_null<scf::ForOp>(loop->getNextNode());
  if (!next || next.getLowerBound() != loop.getUpperBound() || next.getStep() != loop.getStep())
    return {};
  SmallVector<Stream> ours = findStreams(loop), theirs = findStreams(next);
  if (ours.empty() || ours.size() != theirs.size())
    return {};
  for (auto [a, b] : llvm::zip(ours, theirs)) {
    tile::LoadBlockOp x = a.load, y = b.load;
    if (x.getDesc() != y.getDesc() || x.getType() != y.getType() ||
        a.kContiguous != b.kContiguous || a.ringOffset != b.ringOffset)
      return {};
    for (auto [u, v] : llvm::zip(x.getOffsets(), y.getOffsets())) {
      bool uIv = u == loop.getInductionVar(), vIv = v == next.getInductionVar();
      if (uIv != vIv || (!uIv && u != v))
        return {};
    }
  }
  return next;
}

Value KernelLowering::areaAddress(bool ring, Value offset) {
  // Both areas start after the scratch area, whose size is known only at the
  // end: their offsets are constants patched by placeAreas.
  auto start = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  areaStarts.push_back({start, ring});
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType(kShared), "tilec_smem");
  return LLVM::GEPOp::create(b, loc, ptrType(kShared), b.getI8Type(), base,
                             ValueRange{arith::AddIOp::create(b, loc, start, offset)});
}

Value KernelLowering::slotAddress(const Stream &s, Value slot) {
  return areaAddress(/*ring=*/true,
                     arith::AddIOp::create(b, loc, constI32(s.ringOffset),
                                           arith::MulIOp::create(b, loc, slot,
                                                                 constI32(s.slotBytes))));
}

void KernelLowering::placeAreas() {
  // [scratch | resident operands | rings], each 128-byte aligned (1024 when
  // wgmma may read them).
  int64_t alignment = wgmma ? kSwizzleAlignment : 128;
  int64_t residentStart = llvm::alignTo(sharedBytes, alignment);
  int64_t ringStart = llvm::alignTo(residentStart + residentBytes, alignment);
  for (auto [constant, ring] : areaStarts)
    constant.setValueAttr(b.getI32IntegerAttr(ring ? ringStart : residentStart));
  if (residentBytes || ringBytes)
    sharedBytes = ringStart + ringBytes;
}

void KernelLowering::issueStream(const Stream &s, Value iv, Value slot, Value enabled) {
  tile::LoadBlockOp load = s.load;
  Value loopIv = load->getParentOfType<scf::ForOp>().getInductionVar();
  SmallVector<Value> offsets;
  for (Value o : load.getOffsets())
    offsets.push_back(o == loopIv ? iv : scalars[o]);
  if (coversWholeRows(s))
    issueStreamRows(s, offsets, slotAddress(s, slot), enabled);
  else
    issueStreamChunks(s, offsets, slot, enabled);
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
}

bool KernelLowering::coversWholeRows(const Stream &s) {
  const int64_t threads = 32 * layouts.warps(), chunksPerRow = s.cols / 8;
  return threads % chunksPerRow == 0 && s.rows % (threads / chunksPerRow) == 0;
}

/// The index of the one leading dimension of size > 1 of a streamed block
/// (its rows); 0 when all leading dimensions are 1.
static size_t rowDimension(ArrayRef<int64_t> shape) {
  for (size_t dim = 0; dim + 1 < shape.size(); ++dim)
    if (shape[dim] != 1)
      return dim;
  return 0;
}

void KernelLowering::issueStreamRows(const Stream &s, ArrayRef<Value> offsets, Value slotBase,
                                     Value enabled) {
  tile::LoadBlockOp load = s.load;
  const Descriptor &d = descriptors[load.getDesc()];
  auto shape = cast<RankedTensorType>(load.getType()).getShape();
  size_t rowDim = rowDimension(shape), last = shape.size() - 1;
  const int64_t chunksPerRow = s.cols / 8;
  const int64_t rowsPerPass = 32 * layouts.warps() / chunksPerRow;
  Value tid = threadId();
  Value row = arith::DivUIOp::create(b, loc, tid, constI32(chunksPerRow));
  Value col = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, tid, constI32(chunksPerRow)), constI32(8));

  // This thread's first chunk: its position, whether it lies inside the
  // tensor along every dimension but the rows, and its address. Later passes
  // are rowsPerPass rows further: one pointer step, one immediate offset in
  // the slot, one comparison against the rows left.
  SmallVector<Value> pos(offsets.begin(), offsets.end());
  pos[rowDim] = arith::AddIOp::create(b, loc, pos[rowDim], row);
  pos[last] = arith::AddIOp::create(b, loc, pos[last], col);
  Value othersInBounds = enabled, index = constI64(0);
  for (size_t dim = 0; dim < shape.size(); ++dim) {
    if (dim != rowDim)
      othersInBounds = arith::AndIOp::create(
          b, loc, othersInBounds,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos[dim], d.shape[dim]));
    index = arith::AddIOp::create(
        b, loc, index,
        arith::MulIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i64(), pos[dim]),
                              d.strides[dim]));
  }
  Value rowsLeft = arith::SubIOp::create(b, loc, d.shape[rowDim], pos[rowDim]);
  Value rowStep = arith::MulIOp::create(b, loc, d.strides[rowDim], constI64(rowsPerPass));
  Value src = LLVM::GEPOp::create(b, loc, ptrType(kGlobal), d.elementType, d.base,
                                  ValueRange{index});
  // Where this thread's first chunk goes in the slot, and how far each pass
  // moves it.
  Value dstOffset;
  int64_t passBytes;
  if (s.swizzled) {
    // Chunk j of the row: column block j / 8, chunk (j % 8) ^ (row % 8).
    Value chunk = arith::RemUIOp::create(b, loc, tid, constI32(chunksPerRow));
    Value block = arith::DivUIOp::create(b, loc, chunk, constI32(8));
    Value swizzledChunk = arith::XOrIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, chunk, constI32(8)),
        arith::RemUIOp::create(b, loc, row, constI32(8)));
    dstOffset = arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, block, constI32(s.rows * 128)),
                              arith::MulIOp::create(b, loc, row, constI32(128))),
        arith::MulIOp::create(b, loc, swizzledChunk, constI32(16)));
    passBytes = rowsPerPass * 128;
  } else {
    dstOffset = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constI32(s.pitch * 2)),
        arith::MulIOp::create(b, loc, col, constI32(2)));
    passBytes = rowsPerPass * s.pitch * 2;
  }
  Value dst = LLVM::GEPOp::create(b, loc, ptrType(kShared), b.getI8Type(), slotBase,
                                  ValueRange{dstOffset});
  Value zero = constI32(0), sixteen = constI32(16);
  for (int64_t pass = 0; pass * rowsPerPass < s.rows; ++pass) {
    Value inBounds = arith::AndIOp::create(
        b, loc, othersInBounds,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                              constI32(pass * rowsPerPass), rowsLeft));
    // Out of bounds: copy nothing (the slot gets zeros). A zero source size
    // reads nothing, so the address past the end is never dereferenced.
    Value from = src;
    Value to = LLVM::GEPOp::create(b, loc, ptrType(kShared), b.getI8Type(), dst,
                                   ArrayRef<LLVM::GEPArg>{pass * passBytes});
    NVVM::CpAsyncOp::create(b, loc, to, from, b.getI32IntegerAttr(16),
                            NVVM::LoadCacheModifierKindAttr::get(
                                b.getContext(), NVVM::LoadCacheModifierKind::CG),
                            arith::SelectOp::create(b, loc, inBounds, sixteen, zero));
    src = LLVM::GEPOp::create(b, loc, ptrType(kGlobal), d.elementType, src, ValueRange{rowStep});
  }
}

void KernelLowering::issueStreamChunks(const Stream &s, ArrayRef<Value> offsets, Value slot,
                                       Value enabled) {
  tile::LoadBlockOp load = s.load;
  const Descriptor &d = descriptors[load.getDesc()];
  auto shape = cast<RankedTensorType>(load.getType()).getShape();
  const int64_t threads = 32 * layouts.warps(), chunksPerRow = s.cols / 8;
  const int64_t chunks = s.rows * chunksPerRow;
  Value tid = threadId();
  Value slotBase = LLVM::PtrToIntOp::create(b, loc, i64(), slotAddress(s, slot));
  Value zero = constI32(0), sixteen = constI32(16);
  for (int64_t first = 0; first < chunks; first += threads) {
    Value chunk = arith::AddIOp::create(b, loc, tid, constI32(first));
    Value row = arith::DivUIOp::create(b, loc, chunk, constI32(chunksPerRow));
    Value col = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, chunk, constI32(chunksPerRow)), constI32(8));
    // The element's coordinates in the block: `row` spread over the leading
    // dimensions (all but one of them of size 1), `col` along the last.
    SmallVector<Value> coords(shape.size(), zero);
    coords.back() = col;
    for (size_t dim = 0; dim + 1 < shape.size(); ++dim)
      if (shape[dim] != 1)
        coords[dim] = row;
    Value inBounds = enabled, index = constI64(0);
    for (size_t dim = 0; dim < shape.size(); ++dim) {
      Value pos = arith::AddIOp::create(b, loc, offsets[dim], coords[dim]);
      inBounds = arith::AndIOp::create(
          b, loc, inBounds,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos, d.shape[dim]));
      index = arith::AddIOp::create(
          b, loc, index,
          arith::MulIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i64(), pos),
                                d.strides[dim]));
    }
    // Out of bounds: copy nothing (the slot gets zeros) from the base.
    index = arith::SelectOp::create(b, loc, inBounds, index, constI64(0));
    Value src = LLVM::GEPOp::create(b, loc, ptrType(kGlobal), d.elementType, d.base,
                                    ValueRange{index});
    Value srcBytes = arith::SelectOp::create(b, loc, inBounds, sixteen, zero);
    Value dst = arith::AddIOp::create(
        b, loc, slotBase,
        arith::ExtUIOp::create(
            b, loc, i64(),
            arith::AddIOp::create(
                b, loc, arith::MulIOp::create(b, loc, row, constI32(s.pitch * 2)),
                arith::MulIOp::create(b, loc, col, constI32(2)))));
    Value inBlock = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, chunk,
                                          constI32(chunks));
    inlineAsm(TypeRange{}, ValueRange{dst, src, srcBytes, inBlock},
              "@$3 cp.async.cg.shared.global [$0], [$1], 16, $2;", "l,l,r,b",
              /*sideEffects=*/true);
  }
}

bool KernelLowering::copyToResident(tile::LoadBlockOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  Type element = type.getElementType();
  SmallVector<int64_t> dims = nonUnitDims(type.getShape());
  if (!aInShared || !assumeAligned || !(element.isBF16() || element.isF16()) ||
      load.getPadding() != tile::PaddingOption::zero || !descriptors.count(load.getDesc()) ||
      dims.size() != 2 || type.getShape().back() != dims[1] || dims[1] % 8 != 0)
    return false;
  // Through reshapes of unit dimensions to the value the dots read.
  Value value = load.getResult();
  SmallVector<Operation *> views;
  while (value.hasOneUse()) {
    auto reshape = dyn_cast<tile::ReshapeOp>(*value.getUsers().begin());
    if (!reshape || nonUnitDims(reshape.getType().getShape()) != dims)
      break;
    views.push_back(reshape);
    value = reshape.getResult();
  }
  const LinearLayout *layout = layouts.lookup(value);
  if (!layout || !isInvariantOperandA(value, *layout))
    return false;
  // Dots that run as wgmma read it through descriptors (swizzled); mixed
  // readers, or a block that cannot be swizzled, keep it in registers.
  int64_t wgmmaReaders = countWgmmaReaders(value);
  bool swizzled = wgmmaReaders > 0;
  if (swizzled && (wgmmaReaders != static_cast<int64_t>(std::distance(value.use_begin(),
                                                                      value.use_end())) ||
                   !swizzleFits(dims[0], dims[1])))
    return false;
  Stream s = blockCopy(load, {}, dims, /*kContiguous=*/{}, views, swizzled);
  if (!coversWholeRows(s))
    return false;

  requireAligned(descriptors[load.getDesc()], scalars[load.getOffsets().back()], 8);
  if (swizzled)
    residentBytes = llvm::alignTo(residentBytes, kSwizzleAlignment);
  Value base = areaAddress(/*ring=*/false, constI32(residentBytes));
  residentBytes += llvm::alignTo(s.slotBytes, 128);
  SmallVector<Value> offsets;
  for (Value o : load.getOffsets())
    offsets.push_back(scalars[o]);
  issueStreamRows(s, offsets, base, /*enabled=*/constBool(true));
  NVVM::CpAsyncCommitGroupOp::create(b, loc);
  residentInFlight = true;
  streamedOps.insert(views.begin(), views.end());
  resident[value] = StagedOperand{base, /*kContiguous=*/false, s.pitch, swizzled, s.rows};
  return true;
}

void KernelLowering::awaitResident(int64_t youngerGroups) {
  if (!residentInFlight)
    return;
  NVVM::CpAsyncWaitGroupOp::create(b, loc, static_cast<int32_t>(youngerGroups));
  if (llvm::any_of(resident, [](const auto &entry) { return entry.second.swizzled; }))
    fenceProxyAsync();
  barrier();
  residentInFlight = false;
}

void KernelLowering::startStreams(SmallVector<Stream> streams, Value lower,
                                  Value upper, Value step) {
  for (const Stream &s : streams) {
    tile::LoadBlockOp load = s.load;
    requireAligned(descriptors[load.getDesc()], scalars[load.getOffsets().back()], 8);
  }
  streaming = StreamingLoop{std::move(streams), pipelineStages, step, upper, {}, {}};
  // Slots may still be read by slower warps finishing an earlier loop.
  barrier();
  for (int64_t stage = 0; stage + 1 < pipelineStages; ++stage) {
    Value iv = arith::AddIOp::create(b, loc, lower,
                                     arith::MulIOp::create(b, loc, step, constI32(stage)));
    Value enabled = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, upper);
    for (const Stream &s : streaming->streams)
      issueStream(s, iv, constI32(stage), enabled);
  }
  // Resident operands copied before the loop (Q) land while the first
  // blocks are in flight.
  awaitResident((pipelineStages - 1) * static_cast<int64_t>(streaming->streams.size()));
}

Value KernelLowering::resumeStreams(SmallVector<Stream> streams, Value lower, Value upper,
                                    Value step, const RingHandoff &handoff) {
  streaming = StreamingLoop{std::move(streams), pipelineStages, step, upper, {}, {}};
  // The ring holds the blocks from handoff.nextIv on, the first in
  // handoff.slot. A loop that starts elsewhere (bounds that are not a whole
  // number of steps apart) drains it and primes it again, into the same
  // slots, so the number of groups in flight is the same on both paths.
  Value misplaced =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, handoff.nextIv, lower);
  auto reprime = scf::IfOp::create(b, loc, TypeRange{}, misplaced, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(reprime.thenBlock()->getTerminator());
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  barrier();
  for (int64_t stage = 0; stage + 1 < pipelineStages; ++stage) {
    Value iv = arith::AddIOp::create(b, loc, lower,
                                     arith::MulIOp::create(b, loc, step, constI32(stage)));
    Value enabled = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, upper);
    Value slot = arith::RemUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, handoff.slot, constI32(stage)),
        constI32(pipelineStages));
    for (const Stream &s : streaming->streams)
      issueStream(s, iv, slot, enabled);
  }
  return handoff.slot;
}

StagedOperand KernelLowering::awaitStream(const Stream &s) {
  const StreamingLoop &loop = *streaming;
  int64_t younger = (loop.stages - 1) * static_cast<int64_t>(loop.streams.size()) - 1;
  NVVM::CpAsyncWaitGroupOp::create(b, loc, static_cast<int32_t>(younger));
  if (s.swizzled)
    fenceProxyAsync();
  barrier();
  Value ahead = arith::AddIOp::create(
      b, loc, loop.iv, arith::MulIOp::create(b, loc, loop.step, constI32(loop.stages - 1)));
  Value enabled = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, ahead, loop.upper);
  // The slot read one iteration ago: (slot + stages - 1) mod stages.
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, loop.slot, constI32(0));
  Value freed = arith::SelectOp::create(
      b, loc, isFirst, constI32(loop.stages - 1),
      arith::SubIOp::create(b, loc, loop.slot, constI32(1)));
  issueStream(s, ahead, freed, enabled);
  // Each reader sets kContiguous, its own way of reading the slot.
  return StagedOperand{slotAddress(s, loop.slot), false, s.pitch, s.swizzled, s.rows};
}

} // namespace tilec::lowering
