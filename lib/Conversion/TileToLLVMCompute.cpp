//===- TileToLLVMCompute.cpp - mma.sync and reductions ----------------------===//
//
// tile.dot as mma.sync m16n8k16 (operands in registers, or B staged in
// shared memory and read one fragment at a time with ldmatrix; wgmma on
// sm_90a is in TileToLLVMWgmma.cpp), and
// tile.reduce over registers, lanes (shuffles) and warps (shared memory).
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "llvm/Support/MathExtras.h"

namespace tilec::lowering {

//===----------------------------------------------------------------------===//
// dot: mma.sync m16n8k16
//===----------------------------------------------------------------------===//

/// Where `tile` (rows x cols of a dot operand) goes in shared memory: its
/// fast dimension follows its registers (so threads write whole vectors) and
/// rows are padded by 16 bytes (so the eight rows an ldmatrix reads hit
/// distinct banks). For a B operand (K x N), `kContiguous` says that k, not n,
/// is the fast dimension.
static StagedOperand stagedShape(const LinearLayout &l, Type element, Value base,
                                 int64_t &bytes) {
  int64_t k = l.shape()[0], n = l.shape()[1];
  bool kContiguous = !l.regs().empty() && l.regs()[0][0] == 1 && l.regs()[0][1] == 0;
  int64_t rows = kContiguous ? n : k, fast = kContiguous ? k : n;
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  int64_t pitch = fast + 16 / elementBytes;
  bytes = rows * pitch * elementBytes;
  return StagedOperand{base, kContiguous, pitch};
}

void KernelLowering::storeStaged(const TileRegs &tile, Type element, const StagedOperand &to) {
  const LinearLayout &l = tile.layout;
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  int64_t width = std::max<int64_t>(1, l.vectorWidth(element.getIntOrFloatBitWidth()));
  if (!to.kContiguous && !(l.regs().size() && l.regs()[0] == Coords{0, 1}))
    width = 1;
  for (int64_t first = 0; first < l.numRegs(); first += width) {
    SmallVector<Value> c = coords(l, first);
    Value row = to.kContiguous ? c[1] : c[0], col = to.kContiguous ? c[0] : c[1];
    Value index = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constI32(to.pitch)), col);
    Value address =
        LLVM::GEPOp::create(b, loc, ptrType(kShared), element, to.base, ValueRange{index});
    if (width == 1) {
      LLVM::StoreOp::create(b, loc, tile.regs[first], address);
      continue;
    }
    Type vector = VectorType::get({width}, element);
    Value v = LLVM::UndefOp::create(b, loc, vector);
    for (int64_t i = 0; i < width; ++i)
      v = LLVM::InsertElementOp::create(b, loc, v, tile.regs[first + i], constI32(i));
    LLVM::StoreOp::create(b, loc, v, address, /*alignment=*/width * bytes);
  }
}

StagedOperand KernelLowering::stage(const TileRegs &tile, Type element) {
  int64_t bytes = 0;
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType(kShared), "tilec_smem");
  StagedOperand staged = stagedShape(tile.layout, element, base, bytes);
  sharedBytes = std::max(sharedBytes, bytes);
  barrier();
  storeStaged(tile, element, staged);
  barrier();
  return staged;
}

bool KernelLowering::isInvariantOperandA(Value value, const LinearLayout &layout) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!aInShared || !type || type.getRank() != 2 || value.use_empty() ||
      !(type.getElementType().isBF16() || type.getElementType().isF16()))
    return false;
  for (OpOperand &use : value.getUses()) {
    auto dot = dyn_cast<tile::DotOp>(use.getOwner());
    auto loop = dot ? dot->getParentOfType<scf::ForOp>() : scf::ForOp();
    if (!dot || use.getOperandNumber() != 0 || !loop || !loop.isDefinedOutsideOfLoop(value))
      return false;
    int64_t m = dot.getType().getDimSize(0), n = dot.getType().getDimSize(1);
    if (layout != layouts.dotOperandA(m, n, type.getDimSize(1)))
      return false;
  }
  return true;
}

void KernelLowering::keepInShared(Value value) {
  Type element = cast<RankedTensorType>(value.getType()).getElementType();
  int64_t bytes = 0;
  StagedOperand staged = stagedShape(tiles[value].layout, element, {}, bytes);
  staged.base = areaAddress(/*ring=*/false, constI32(residentBytes));
  residentBytes += (bytes + 127) / 128 * 128;
  storeStaged(tiles[value], element, staged);
  barrier();
  resident[value] = staged;
}

/// `count` 8x8 matrices of 16-bit elements with one ldmatrix, this lane
/// giving the address `base` + `offsetBytes` (of row l % 8 of matrix l / 8):
/// one 32-bit word per matrix. The constant offset is written into the
/// instruction, so all fragments of an operand share one base register (LLVM
/// would otherwise hoist one address per fragment out of the loop and keep
/// them all live in it).
SmallVector<Value> KernelLowering::loadMatrices(Value base, int64_t offsetBytes, int64_t count,
                                                bool transpose) {
  std::string registers;
  for (int64_t i = 0; i < count; ++i)
    registers += (i ? ", $" : "$") + std::to_string(i);
  std::string text = "ldmatrix.sync.aligned.m8n8.x" + std::to_string(count) +
                     (transpose ? ".trans" : "") + ".shared.b16 {" + registers + "}, [$" +
                     std::to_string(count) + "+" + std::to_string(offsetBytes) + "];";
  std::string constraints;
  for (int64_t i = 0; i < count; ++i)
    constraints += "=r,";
  constraints += "r";
  // A shared-memory address fits in 32 bits.
  Value address = LLVM::PtrToIntOp::create(b, loc, i32(), base);
  SmallVector<Type> words(count, i32());
  Type result = count == 1 ? i32() : LLVM::LLVMStructType::getLiteral(b.getContext(), words);
  // With side effects: ordered after the barriers that make the data visible.
  Value loaded = inlineAsm(result, ValueRange{address}, text, constraints,
                           /*sideEffects=*/true).getResult(0);
  if (count == 1)
    return {loaded};
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, loaded, ArrayRef<int64_t>{i}));
  return values;
}

/// The four 32-bit registers of the A fragment (m16 x k16) for this lane,
/// whose first element is at (m, k), with one ldmatrix.x4: lane l points at
/// row l % 8 of matrix l / 8 (matrices: rows 0-7 / 8-15, then k 0-7 / 8-15),
/// which yields a0..a3 in mma.sync's order.
SmallVector<Value> KernelLowering::loadFragmentA(const StagedOperand &staged,
                                                 ArrayRef<Value> first, const Coords &offset,
                                                 Type element) {
  Value m = first[0], k = first[1];
  // The fragment's origin: this lane holds (m0 + lane / 4, k0 + 2·(lane % 4)).
  Value m0 = arith::SubIOp::create(b, loc, m,
                                   arith::ShRUIOp::create(b, loc, lane, constI32(2)));
  Value k0 = arith::SubIOp::create(
      b, loc, k,
      arith::MulIOp::create(b, loc, arith::AndIOp::create(b, loc, lane, constI32(3)),
                            constI32(2)));
  Value rowInFragment = arith::AddIOp::create(
      b, loc, arith::AndIOp::create(b, loc, lane, constI32(7)),
      arith::AndIOp::create(b, loc, lane, constI32(8)));
  Value colInFragment = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, lane, constI32(16)), constI32(1));
  Value row = arith::AddIOp::create(b, loc, m0, rowInFragment);
  Value col = arith::AddIOp::create(b, loc, k0, colInFragment);
  Value index = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, row, constI32(staged.pitch)), col);
  Value address = LLVM::GEPOp::create(b, loc, ptrType(kShared), element, staged.base,
                                      ValueRange{index});
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  return loadMatrices(address, (offset[0] * staged.pitch + offset[1]) * bytes, 4,
                      /*transpose=*/false);
}

/// The two 32-bit registers of the B fragment (k16 x n8) for this lane, whose
/// first element is at (k, n), with one ldmatrix.x2: lanes 0-15 point at the
/// sixteen 16-byte rows of the two 8x8 matrices, `.trans` when the staged
/// tile keeps n (not k) contiguous.
SmallVector<Value> KernelLowering::loadFragmentB(const StagedOperand &staged,
                                                 ArrayRef<Value> first, const Coords &offset,
                                                 Type element) {
  Value k = first[0], n = first[1];
  // The fragment's origin: this lane holds (k0 + 2·(lane % 4), n0 + lane / 4).
  Value k0 = arith::SubIOp::create(
      b, loc, k, arith::MulIOp::create(b, loc, arith::AndIOp::create(b, loc, lane, constI32(3)),
                                       constI32(2)));
  Value n0 = arith::SubIOp::create(b, loc, n,
                                   arith::ShRUIOp::create(b, loc, lane, constI32(2)));
  Value rowInMatrix = arith::AndIOp::create(b, loc, lane, constI32(7));
  Value matrix = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, lane, constI32(3)), constI32(1));
  Value eight = constI32(8);
  Value row, col;
  if (staged.kContiguous) {
    // Rows are n; matrix 1 is 8 further along k.
    row = arith::AddIOp::create(b, loc, n0, rowInMatrix);
    col = arith::AddIOp::create(b, loc, k0, arith::MulIOp::create(b, loc, matrix, eight));
  } else {
    // Rows are k; matrix 1 is 8 rows further.
    row = arith::AddIOp::create(
        b, loc, k0,
        arith::AddIOp::create(b, loc, rowInMatrix, arith::MulIOp::create(b, loc, matrix, eight)));
    col = n0;
  }
  Value index =
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, row, constI32(staged.pitch)), col);
  Value address = LLVM::GEPOp::create(b, loc, ptrType(kShared), element, staged.base,
                                      ValueRange{index});
  int64_t rowOffset = staged.kContiguous ? offset[1] : offset[0];
  int64_t colOffset = staged.kContiguous ? offset[0] : offset[1];
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  return loadMatrices(address, (rowOffset * staged.pitch + colOffset) * bytes, 2,
                      /*transpose=*/!staged.kContiguous);
}

LogicalResult KernelLowering::lowerDot(tile::DotOp op) {
  Type element = op.getA().getType().getElementType();
  if (!element.isBF16() && !element.isF16())
    return op.emitError("the GPU lowering runs tile.dot on bf16 or f16 inputs; got ") << element;
  int64_t m = op.getType().getDimSize(0), n = op.getType().getDimSize(1);
  int64_t k = op.getA().getType().getDimSize(1);
  auto [wm, wn] = layouts.dotWarps(m, n);
  LinearLayout accLayout = layouts.dotAccumulator(m, n);
  LinearLayout bLayout = layouts.dotOperandB(m, n, k);
  LinearLayout aLayout = layouts.dotOperandA(m, n, k);
  const Stream *stream = nullptr;
  for (const Stream &s : streaming ? ArrayRef<Stream>(streaming->streams) : ArrayRef<Stream>())
    if (s.reads(op))
      stream = &s;
  std::optional<StagedOperand> streamed;
  if (stream) {
    // The first reader waits for this iteration's block; later ones share it.
    auto [it, first] = awaitedSlots.try_emplace(stream, StagedOperand{});
    if (first)
      it->second = awaitStream(*stream);
    streamed = it->second;
    streamed->kContiguous = stream->kContiguousFor(op);
  }
  // B streamed into wgmma's layout: the whole dot is wgmma.
  if (stream && stream->swizzled)
    return lowerDotWgmma(op, *streamed);

  auto residentA = resident.find(op.getA());
  if (residentA != resident.end() && residentA->second.swizzled)
    return op.emitError("internal: an mma.sync dot reads an A operand laid out for wgmma");
  TileRegs a = residentA == resident.end() ? operandIn(op.getA(), aLayout) : TileRegs{};
  TileRegs acc = operandIn(op.getC(), accLayout);

  // B in registers when it is already there (or a splat); otherwise staged in
  // shared memory and read one fragment at a time.
  std::optional<TileRegs> bRegs;
  std::optional<StagedOperand> staged;
  if (stream)
    staged = streamed;
  else if (const TileRegs &bSource = tiles[op.getB()];
           bSource.splat || bSource.layout == bLayout ||
           tilec::registerLocalMove(bSource.layout, bLayout, [](const Coords &c) { return c; }))
    bRegs = operandIn(op.getB(), bLayout);
  else
    staged = stage(tiles[op.getB()], element);

  std::string asmText = std::string("mma.sync.aligned.m16n8k16.row.col.f32.") +
                        (element.isBF16() ? "bf16.bf16" : "f16.f16") +
                        ".f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};";
  Type f32 = b.getF32Type();
  Type result = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});

  int64_t kTiles = k / 16, mTiles = m / (16 * wm), nTiles = n / (8 * wn);
  // Tile counts are powers of two (layouts are of power-of-two shapes).
  int64_t kBits = llvm::Log2_64(kTiles), nBits = llvm::Log2_64(nTiles);
  SmallVector<Value> regs = acc.regs;
  DenseMap<int64_t, SmallVector<Value>> aFragments;
  for (int64_t ki = 0; ki < kTiles; ++ki)
    for (int64_t ni = 0; ni < nTiles; ++ni) {
      int64_t bBase = ki << 2 | ni << (2 + kBits);
      SmallVector<Value> bWords;
      if (bRegs) {
        bWords = {packWord({bRegs->regs[bBase], bRegs->regs[bBase + 1]}),
                  packWord({bRegs->regs[bBase + 2], bRegs->regs[bBase + 3]})};
      } else {
        auto [first, offset] = splitCoords(bLayout, bBase);
        bWords = loadFragmentB(*staged, first, offset, element);
      }
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        int64_t aBase = ki << 3 | mi << (3 + kBits);
        int64_t cBase = ni << 2 | mi << (2 + nBits);
        SmallVector<Value> operands;
        if (residentA != resident.end()) {
          // Read from shared memory once per fragment, at its first use.
          auto [it, fresh] = aFragments.try_emplace(aBase);
          if (fresh) {
            auto [first, offset] = splitCoords(aLayout, aBase);
            it->second = loadFragmentA(residentA->second, first, offset, element);
          }
          operands.append(it->second.begin(), it->second.end());
        } else {
          for (int64_t i = 0; i < 8; i += 2)
            operands.push_back(packWord({a.regs[aBase + i], a.regs[aBase + i + 1]}));
        }
        operands.append(bWords.begin(), bWords.end());
        for (int64_t i = 0; i < 4; ++i)
          operands.push_back(regs[cBase + i]);
        auto mma = inlineAsm(result, operands, asmText, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3",
                             /*sideEffects=*/false);
        for (int64_t i = 0; i < 4; ++i)
          regs[cBase + i] =
              LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), ArrayRef<int64_t>{i});
      }
    }
  tiles[op] = TileRegs{accLayout, regs, {}};
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions: registers, then shuffles across lanes, then shared memory
// across warps.
//===----------------------------------------------------------------------===//

Value KernelLowering::combine(tile::ReduceKind kind, Value a, Value c) {
  return tile::buildCombine(b, loc, kind, a, c);
}

LogicalResult KernelLowering::lowerReduce(tile::ReduceOp op) {
  TileRegs src = tiles[op.getSrc()];
  const LinearLayout &l = src.layout;
  int64_t axis = op.getAxis();
  LinearLayout sliced = l.slice(axis);
  tile::ReduceKind kind = op.getKind();
  Type element = op.getSrc().getType().getElementType();

  std::string whyNot;
  std::optional<ReductionPlan> plan = planReduction(l, axis, &whyNot);
  if (!plan)
    return op.emitError("the GPU lowering cannot reduce this layout (") << whyNot << ")";

  // Registers: each group combined pairwise, as a tree: log2(n) dependent
  // steps instead of n - 1 (the softmax row max and sum sit on the loop's
  // critical path).
  SmallVector<Value> values;
  for (const std::vector<int64_t> &group : plan->registerGroups) {
    SmallVector<Value> partial;
    for (int64_t reg : group)
      partial.push_back(src.regs[reg]);
    while (partial.size() > 1) {
      for (size_t i = 0; i < partial.size() / 2; ++i)
        partial[i] = combine(kind, partial[2 * i], partial[2 * i + 1]);
      partial.resize(partial.size() / 2);
    }
    values.push_back(partial.front());
  }

  // Lanes: butterfly shuffles over the lane bits along the axis.
  if (!plan->laneBits.empty() && element.getIntOrFloatBitWidth() != 32)
    return op.emitError("the GPU lowering shuffles 32-bit values only, got ") << element;
  for (int64_t bit : plan->laneBits) {
    for (Value &v : values) {
      Value shuffled = NVVM::ShflOp::create(b, loc, element, constI32(-1), v,
                                            constI32(int64_t{1} << bit), constI32(31),
                                            NVVM::ShflKind::bfly, UnitAttr());
      v = combine(kind, v, shuffled);
    }
  }

  // Warps: partial results meet in shared memory.
  const std::vector<int64_t> &warpAxisBits = plan->warpBits;
  if (!warpAxisBits.empty()) {
    int64_t groups = int64_t{1} << warpAxisBits.size();
    int64_t outElems = std::max<int64_t>(1, sliced.numElements());
    unsigned bytes = element.getIntOrFloatBitWidth() / 8;
    sharedBytes = std::max(sharedBytes, groups * outElems * int64_t(bytes));
    Value group = constI32(0);
    for (size_t i = 0; i < warpAxisBits.size(); ++i) {
      Value bitSet = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, warp, constI32(warpAxisBits[i])), constI32(1));
      group = arith::OrIOp::create(b, loc, group,
                                   arith::ShLIOp::create(b, loc, bitSet, constI32(i)));
    }
    barrier();
    SmallVector<Value> outIndex;
    for (size_t j = 0; j < values.size(); ++j) {
      Value index = sliced.rank() ? linear(coords(sliced, j), sliced.shape()) : constI32(0);
      outIndex.push_back(index);
      Value slot = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, group, constI32(outElems)), index);
      LLVM::StoreOp::create(b, loc, values[j], sharedAddress(slot, element));
    }
    barrier();
    for (size_t j = 0; j < values.size(); ++j) {
      Value acc;
      for (int64_t g = 0; g < groups; ++g) {
        Value slot = arith::AddIOp::create(b, loc, constI32(g * outElems), outIndex[j]);
        Value v = LLVM::LoadOp::create(b, loc, element, sharedAddress(slot, element));
        acc = acc ? combine(kind, acc, v) : v;
      }
      values[j] = acc;
    }
  }

  if (sliced.rank() == 0) {
    scalars[op] = values[0];
    return success();
  }
  tiles[op] = TileRegs{sliced, values, {}};
  return success();
}

} // namespace tilec::lowering
