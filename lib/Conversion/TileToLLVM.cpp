//===- TileToLLVM.cpp - tile kernels to per-thread LLVM + NVVM code -------===//
//
// Each tile value becomes the registers its layout gives one thread; every
// op becomes per-register scalar code. Data that must cross threads goes
// through shared memory (a generic exchange derived from the two layouts) or
// warp shuffles (reductions). tile.dot becomes mma.sync m16n8k16. This file:
// the pass, the kernel, elementwise ops and moving tiles between layouts;
// control flow, memory, compute, pipelining and wgmma are in the files
// beside it.
//
//===----------------------------------------------------------------------===//

#include "ArrivalPTX.h"
#include "KernelLowering.h"

#include "tilec/Passes.h"

#include "llvm/ADT/TypeSwitch.h"

namespace tilec {
#define GEN_PASS_DEF_TILETOLLVM
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

namespace tilec::lowering {

Value KernelLowering::constOf(Type type, double v) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, v));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, static_cast<int64_t>(v)));
}

//===----------------------------------------------------------------------===//
// Thread geometry
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::threadCoords(const LinearLayout &layout) {
  std::string key = layout.str();
  auto it = coordCache.find(key);
  if (it != coordCache.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(prologueEnd);
  SmallVector<Value> result;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value c = constI32(0);
    auto addBits = [&](Value id, const std::vector<Coords> &bases) {
      for (size_t bit = 0; bit < bases.size(); ++bit) {
        if (bases[bit][d] == 0)
          continue;
        Value set = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, id, constI32(bit)), constI32(1));
        c = arith::XOrIOp::create(b, loc, c,
                                  arith::MulIOp::create(b, loc, set, constI32(bases[bit][d])));
      }
    };
    addBits(lane, layout.lanes());
    addBits(warp, layout.warps());
    result.push_back(c);
  }
  if (b.getInsertionPoint() != b.getInsertionBlock()->begin())
    prologueEnd = &*std::prev(b.getInsertionPoint());
  coordCache[key] = result;
  return result;
}

void KernelLowering::renewThreadGeometry() {
  coordCache.clear();
  Value tid = inlineAsm(i32(), ValueRange{}, "mov.u32 $0, %tid.x;", "=r", /*sideEffects=*/true)
                  .getResult(0);
  lane = arith::AndIOp::create(b, loc, tid, constI32(31));
  warp = arith::ShRUIOp::create(b, loc, tid, constI32(5));
  prologueEnd = warp.getDefiningOp();
}

KernelLowering::ThreadGeometryScope::ThreadGeometryScope(KernelLowering &lowering,
                                                         scf::ForOp loop)
    : lowering(lowering), lane(lowering.lane), warp(lowering.warp),
      prologueEnd(lowering.prologueEnd), coordCache(std::move(lowering.coordCache)) {
  lowering.loopStack.push_back(loop);
  lowering.renewThreadGeometry();
}

KernelLowering::ThreadGeometryScope::~ThreadGeometryScope() {
  lowering.lane = lane;
  lowering.warp = warp;
  lowering.prologueEnd = prologueEnd;
  lowering.coordCache = std::move(coordCache);
  lowering.loopStack.pop_back();
}

SmallVector<Value> KernelLowering::coords(const LinearLayout &layout, int64_t reg) {
  SmallVector<Value> thread = threadCoords(layout);
  Coords part = layout.regPart(reg);
  SmallVector<Value> result;
  for (int64_t d = 0; d < layout.rank(); ++d)
    result.push_back(part[d] ? Value(arith::XOrIOp::create(b, loc, thread[d], constI32(part[d])))
                             : thread[d]);
  return result;
}

std::pair<SmallVector<Value>, Coords> KernelLowering::splitCoords(const LinearLayout &layout,
                                                                  int64_t reg) {
  for (int64_t d = 0; d < layout.rank(); ++d) {
    int64_t threadBits = 0, regBits = 0;
    for (const Coords &basis : layout.lanes())
      threadBits |= basis[d];
    for (const Coords &basis : layout.warps())
      threadBits |= basis[d];
    for (const Coords &basis : layout.regs())
      regBits |= basis[d];
    if (threadBits & regBits)
      return {coords(layout, reg), Coords(layout.rank(), 0)};
  }
  return {threadCoords(layout), layout.regPart(reg)};
}

Value KernelLowering::linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  Value index = constI32(0);
  for (size_t d = 0; d < shape.size(); ++d)
    index = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, index, constI32(shape[d])),
                                  coords[d]);
  return index;
}

//===----------------------------------------------------------------------===//
// Moving data between layouts
//===----------------------------------------------------------------------===//

static Coords mapCoords(const Coords &dst, MoveKind kind, const LinearLayout &src,
                        const LinearLayout &dstLayout) {
  switch (kind) {
  case MoveKind::Identity: return dst;
  case MoveKind::Broadcast: {
    Coords c = dst;
    for (size_t d = 0; d < c.size(); ++d)
      if (src.shape()[d] == 1)
        c[d] = 0;
    return c;
  }
  case MoveKind::Reshape: {
    int64_t index = dstLayout.linearIndex(dst);
    Coords c(src.rank());
    for (int64_t d = src.rank() - 1; d >= 0; --d) {
      c[d] = index % src.shape()[d];
      index /= src.shape()[d];
    }
    return c;
  }
  }
  return dst;
}

std::optional<TileRegs> KernelLowering::moveWithinThreads(const TileRegs &src,
                                                          const LinearLayout &dst, MoveKind kind) {
  if (kind == MoveKind::Identity && src.layout == dst)
    return src;
  if (src.splat)
    return TileRegs{dst, SmallVector<Value>(dst.numRegs(), src.splat), src.splat};
  auto move = tilec::registerLocalMove(
      src.layout, dst, [&](const Coords &c) { return mapCoords(c, kind, src.layout, dst); });
  if (!move)
    return std::nullopt;
  TileRegs out{dst, {}, {}};
  for (int64_t from : *move)
    out.regs.push_back(src.regs[from]);
  return out;
}

TileRegs KernelLowering::convert(const TileRegs &src, const LinearLayout &dst, Type elementType,
                                 MoveKind kind) {
  if (std::optional<TileRegs> moved = moveWithinThreads(src, dst, kind))
    return *moved;
  return exchange(src, dst, elementType, kind);
}

TileRegs KernelLowering::operandIn(Value value, const LinearLayout &layout, MoveKind kind) {
  // Index and mask arithmetic from outside the loop being lowered is
  // recomputed here rather than kept live through the loop.
  if (!loopStack.empty() && kind == MoveKind::Identity && !tiles[value].splat &&
      !loopStack.back()->isAncestor(value.getParentRegion()->getParentOp())) {
    int budget = 24;
    if (std::optional<TileRegs> again = rematerialize(value, layout, budget))
      return *again;
  }
  const TileRegs &src = tiles[value];
  if (std::optional<TileRegs> moved = moveWithinThreads(src, layout, kind))
    return *moved;
  int budget = 24;
  if (kind == MoveKind::Identity)
    if (std::optional<TileRegs> again = rematerialize(value, layout, budget))
      return *again;
  return exchange(src, layout, scalarType(value.getType()), kind);
}

std::optional<TileRegs> KernelLowering::rematerialize(Value value, const LinearLayout &layout,
                                                      int &budget) {
  Operation *def = value.getDefiningOp();
  // A layout conversion is what re-creating the value does anyway.
  if (auto convert = dyn_cast_or_null<tilegpu::ConvertLayoutOp>(def))
    return rematerialize(convert.getSrc(), layout, budget);
  if (!def || --budget < 0)
    return std::nullopt;
  auto filled = [&](Value scalar) {
    return TileRegs{layout, SmallVector<Value>(layout.numRegs(), scalar), scalar};
  };
  if (tiles.count(value) && tiles[value].splat)
    return filled(tiles[value].splat);
  if (isa<tile::IotaOp>(def)) {
    TileRegs out{layout, {}, {}};
    for (int64_t r = 0; r < layout.numRegs(); ++r)
      out.regs.push_back(coords(layout, r)[0]);
    return out;
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(def)) {
    std::optional<TileRegs> src =
        rematerialize(expand.getSrc(), layout.dropUnitDim(expand.getAxis()), budget);
    if (!src)
      return std::nullopt;
    return TileRegs{layout, src->regs, src->splat};
  }
  if (auto bcast = dyn_cast<tile::BroadcastOp>(def)) {
    std::vector<int64_t> collapsed;
    ArrayRef<int64_t> from = bcast.getSrc().getType().getShape();
    for (int64_t d = 0; d < static_cast<int64_t>(from.size()); ++d)
      if (from[d] == 1 && layout.shape()[d] != 1)
        collapsed.push_back(d);
    std::optional<TileRegs> src = rematerialize(bcast.getSrc(), layout.collapse(collapsed), budget);
    if (!src)
      return std::nullopt;
    return TileRegs{layout, src->regs, src->splat};
  }
  bool elementwise = def->getNumResults() == 1 && def->getNumRegions() == 0 &&
                     (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
                      isa<tile::CastOp>(def));
  if (!elementwise)
    return std::nullopt;
  SmallVector<TileRegs> operands;
  for (Value operand : def->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType())) {
      operands.push_back(filled(scalars[operand]));
      continue;
    }
    std::optional<TileRegs> t = rematerialize(operand, layout, budget);
    if (!t)
      return std::nullopt;
    operands.push_back(*t);
  }
  Type resultType = scalarType(def->getResult(0).getType());
  TileRegs out{layout, {}, {}};
  for (int64_t r = 0; r < layout.numRegs(); ++r) {
    SmallVector<Value> regOperands;
    for (const TileRegs &t : operands)
      regOperands.push_back(t.regs[r]);
    out.regs.push_back(isa<tile::CastOp>(def)
                           ? castScalar(regOperands[0], resultType)
                           : scalarOp(def, regOperands, resultType)->getResult(0));
  }
  return out;
}

Value KernelLowering::sharedAddress(Value elementIndex, Type elementType) {
  unsigned bytes = isa<LLVM::LLVMPointerType>(elementType)
                       ? 8
                       : std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType(kShared), "tilec_smem");
  Value offset = arith::MulIOp::create(b, loc, elementIndex, constI32(bytes));
  return LLVM::GEPOp::create(b, loc, ptrType(kShared), b.getI8Type(), base, ValueRange{offset});
}

TileRegs KernelLowering::exchange(const TileRegs &src, const LinearLayout &dst, Type elementType,
                                  MoveKind kind) {
  Type stored = elementType.isInteger(1) ? b.getI8Type() : elementType;
  unsigned bytes = isa<LLVM::LLVMPointerType>(stored) ? 8 : stored.getIntOrFloatBitWidth() / 8;
  sharedBytes = std::max(sharedBytes, src.layout.numElements() * int64_t(bytes));
  barrier();
  for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
    Value value = src.regs[r];
    if (elementType.isInteger(1))
      value = arith::ExtUIOp::create(b, loc, stored, value);
    Value index = linear(coords(src.layout, r), src.layout.shape());
    LLVM::StoreOp::create(b, loc, value, sharedAddress(index, stored));
  }
  barrier();
  TileRegs out{dst, {}, {}};
  for (int64_t r = 0; r < dst.numRegs(); ++r) {
    SmallVector<Value> c = coords(dst, r);
    Value index;
    if (kind == MoveKind::Reshape) {
      index = linear(c, dst.shape()); // row-major order is what reshape keeps
    } else {
      if (kind == MoveKind::Broadcast)
        for (int64_t d = 0; d < src.layout.rank(); ++d)
          if (src.layout.shape()[d] == 1)
            c[d] = constI32(0);
      index = linear(c, src.layout.shape());
    }
    Value value = LLVM::LoadOp::create(b, loc, stored, sharedAddress(index, stored));
    if (elementType.isInteger(1))
      value = arith::TruncIOp::create(b, loc, elementType, value);
    out.regs.push_back(value);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::run() {
  MLIRContext *ctx = kernel.getContext();
  for (BlockArgument arg : kernel.getArguments())
    if (!isa<tile::PointerType, IntegerType, FloatType>(arg.getType()))
      return kernel.emitError("the GPU lowering takes pointers and scalars as kernel arguments; "
                              "argument ")
             << arg.getArgNumber() << " is " << arg.getType()
             << " (make descriptors inside the kernel with tile.make_desc)";
  b.setInsertionPoint(kernel);
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes())
    argTypes.push_back(scalarType(type));
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  function = LLVM::LLVMFuncOp::create(b, loc, kernel.getName(), fnType);
  function->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  int64_t threads = 32 * layouts.warps();
  function->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  Block *entry = function.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  for (auto [old, arg] : llvm::zip(kernel.getArguments(), entry->getArguments()))
    scalars[old] = arg;

  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  lane = arith::AndIOp::create(b, loc, tid, constI32(31));
  warp = arith::ShRUIOp::create(b, loc, tid, constI32(5));
  prologueEnd = warp.getDefiningOp();

  if (failed(lowerBlock(kernel.getBody().front())))
    return failure();
  placeAreas();
  if (minBlocksPerSM > 0)
    function->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                      b.getI32IntegerAttr(static_cast<int32_t>(minBlocksPerSM)));
  function->setAttr("tilec.num_warps", b.getI64IntegerAttr(layouts.warps()));
  function->setAttr("tilec.shared_bytes", b.getI64IntegerAttr(sharedBytes));
  if (!alignedArgs.empty())
    function->setAttr("tilec.aligned_args",
                      b.getDenseI64ArrayAttr(SmallVector<int64_t>(alignedArgs.begin(),
                                                                  alignedArgs.end())));
  return success();
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lower(&op)))
      return failure();
  return success();
}

void KernelLowering::waitForReadsOf(Operation *op) {
  // A dot's wgmma result is waited for where it is first read (ops with
  // regions and terminators may read anything: everything is waited for).
  if (op->getNumRegions() || op->hasTrait<OpTrait::IsTerminator>())
    waitForAllWgmma();
  for (Value operand : op->getOperands())
    waitForWgmma(operand);
}

LogicalResult KernelLowering::lower(Operation *op) {
  loc = op->getLoc();
  waitForReadsOf(op);
  // A conversion is emitted after the waits of the first op it feeds, where
  // that op's own operand conversion would have been.
  if (isa<tilegpu::ConvertLayoutOp>(op)) {
    Operation *first = nullptr;
    for (Operation *user : op->getUsers())
      if (user->getBlock() == op->getBlock() && (!first || user->isBeforeInBlock(first)))
        first = user;
    if (first)
      waitForReadsOf(first);
  }
  if (auto load = dyn_cast<tile::LoadBlockOp>(op); load && copyToResident(load))
    return success();
  if (failed(lowerOp(op)))
    return failure();
  for (Value result : op->getResults())
    if (tiles.count(result) && !tiles[result].splat &&
        isInvariantOperandA(result, tiles[result].layout) && countWgmmaReaders(result) == 0)
      keepInShared(result);
  return success();
}

LogicalResult KernelLowering::lowerOp(Operation *op) {
  loc = op->getLoc();
  if (streamedOps.contains(op))
    return success(); // copied by cp.async; its dot reads shared memory
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](func::ReturnOp) {
        LLVM::ReturnOp::create(b, loc, ValueRange{});
        return success();
      })
      .Case([&](scf::ForOp loop) { return lowerFor(loop); })
      .Case([&](scf::IfOp branch) { return lowerIf(branch); })
      .Case([&](tile::ProgramIdOp pid) {
        Value v = pid.getAxis() == 0   ? Value(NVVM::BlockIdXOp::create(b, loc, i32()))
                  : pid.getAxis() == 1 ? Value(NVVM::BlockIdYOp::create(b, loc, i32()))
                                       : Value(NVVM::BlockIdZOp::create(b, loc, i32()));
        scalars[pid] = v;
        return success();
      })
      .Case([&](tile::NumProgramsOp num) {
        Value v = num.getAxis() == 0   ? Value(NVVM::GridDimXOp::create(b, loc, i32()))
                  : num.getAxis() == 1 ? Value(NVVM::GridDimYOp::create(b, loc, i32()))
                                       : Value(NVVM::GridDimZOp::create(b, loc, i32()));
        scalars[num] = v;
        return success();
      })
      .Case([&](tile::MakeDescOp make) {
        Descriptor d{scalars[make.getBase()], make.getBase().getType().getPointeeType(), {}, {}};
        for (Value s : make.getShape()) d.shape.push_back(scalars[s]);
        for (Value s : make.getStrides()) d.strides.push_back(scalars[s]);
        descriptors[make.getResult()] = d;
        return success();
      })
      .Case([&](tilegpu::ConvertLayoutOp convert) {
        // What every consumer would otherwise do with an operand in another
        // layout: move within threads, re-create, or exchange.
        tiles[convert] = operandIn(convert.getSrc(), *layouts.lookup(convert));
        return success();
      })
      .Case([&](tile::LoadBlockOp load) { return lowerLoadBlock(load); })
      .Case([&](tile::StoreBlockOp store) { return lowerStoreBlock(store); })
      .Case([&](tile::AtomicAddBlockOp add) { return lowerAtomicAddBlock(add); })
      .Case([&](tile::LoadOp load) { return lowerLoad(load); })
      .Case([&](tile::LoadScalarOp load) -> LogicalResult {
        Type element = load.getType();
        Value other = load.getOther() ? scalars[load.getOther()] : constOf(element, 0.0);
        Value keep = load.getMask() ? scalars[load.getMask()]
                                    : Value(arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
        Value v = predicatedLoad(scalars[load.getPtr()], keep, element, other, load);
        if (!v)
          return failure();
        scalars[load] = v;
        return success();
      })
      .Case([&](tile::LastArrivalOp arrival) -> LogicalResult {
        // Every thread of the block; the wait for bulk stores where dQ's
        // rows go by bulk reductions (wgmma targets).
        Value bits =
            LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), scalars[arrival.getCounter()]);
        Value lastIndex = arith::SubIOp::create(b, loc, scalars[arrival.getCount()], constI32(1));
        Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
        Value last = inlineAsm(TypeRange{i32()}, ValueRange{bits, lastIndex, tid},
                               lastArrivalPTX(0, 32 * layouts.warps(), wgmma), "=r,l,r,r",
                               /*sideEffects=*/true)
                         .getResult(0);
        scalars[arrival] =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, last, constI32(0));
        return success();
      })
      .Case([&](tile::StoreOp store) { return lowerStore(store); })
      .Case([&](tile::DotOp dot) { return lowerDot(dot); })
      .Case([&](tile::ReduceOp reduce) { return lowerReduce(reduce); })
      .Case([&](tile::IotaOp iota) {
        const LinearLayout &l = *layouts.lookup(iota);
        TileRegs out{l, {}, {}};
        for (int64_t r = 0; r < l.numRegs(); ++r)
          out.regs.push_back(coords(l, r)[0]);
        tiles[iota] = out;
        return success();
      })
      .Case([&](tile::SplatOp splat) {
        const LinearLayout &l = *layouts.lookup(splat);
        Value s = scalars[splat.getSrc()];
        tiles[splat] = TileRegs{l, SmallVector<Value>(l.numRegs(), s), s};
        return success();
      })
      .Case([&](tile::BroadcastOp bcast) {
        // Repeat the source within each thread if it holds what it needs;
        // else re-create the whole broadcast of index arithmetic in place;
        // else exchange through shared memory.
        const LinearLayout &l = *layouts.lookup(bcast);
        const TileRegs &src = tiles[bcast.getSrc()];
        std::optional<TileRegs> out = moveWithinThreads(src, l, MoveKind::Broadcast);
        int budget = 24;
        if (!out)
          out = rematerialize(bcast, l, budget);
        tiles[bcast] = out ? *out : exchange(src, l, scalarType(bcast.getType()), MoveKind::Broadcast);
        return success();
      })
      .Case<tile::ExpandDimsOp, tile::TransOp>([&](Operation *reshape) {
        // The assigned layout is the source's, reorganized: no data moves.
        const TileRegs &src = tiles[reshape->getOperand(0)];
        tiles[reshape->getResult(0)] =
            TileRegs{*layouts.lookup(reshape->getResult(0)), src.regs, src.splat};
        return success();
      })
      .Case([&](tile::ReshapeOp reshape) {
        tiles[reshape] = convert(tiles[reshape.getSrc()], *layouts.lookup(reshape),
                                 scalarType(reshape.getType()), MoveKind::Reshape);
        return success();
      })
      .Case([&](tile::AddPtrOp add) {
        Type pointee =
            cast<tile::PointerType>(getElementTypeOrSelf(add.getType())).getPointeeType();
        if (!isa<RankedTensorType>(add.getType())) {
          scalars[add] = LLVM::GEPOp::create(b, loc, ptrType(kGlobal), pointee,
                                             scalars[add.getPtr()],
                                             ValueRange{scalars[add.getOffset()]});
          return success();
        }
        const LinearLayout &l = *layouts.lookup(add);
        TileRegs ptrs = operandIn(add.getPtr(), l);
        TileRegs offs = isa<RankedTensorType>(add.getOffset().getType())
                            ? operandIn(add.getOffset(), l)
                            : TileRegs{l, SmallVector<Value>(l.numRegs(), scalars[add.getOffset()]), {}};
        TileRegs out{l, {}, {}};
        for (int64_t r = 0; r < l.numRegs(); ++r)
          out.regs.push_back(LLVM::GEPOp::create(b, loc, ptrType(kGlobal), pointee, ptrs.regs[r],
                                                 ValueRange{offs.regs[r]}));
        tiles[add] = out;
        return success();
      })
      .Case([&](tile::CastOp cast) -> LogicalResult {
        Type to = getElementTypeOrSelf(cast.getType());
        if (!isa<RankedTensorType>(cast.getType())) {
          scalars[cast] = castScalar(scalars[cast.getSrc()], to);
          return success();
        }
        const LinearLayout &l = *layouts.lookup(cast);
        TileRegs src = operandIn(cast.getSrc(), l);
        TileRegs out{l, {}, {}};
        for (Value v : src.regs)
          out.regs.push_back(castScalar(v, to));
        if (src.splat)
          out.splat = out.regs.empty() ? Value() : out.regs[0];
        tiles[cast] = out;
        return success();
      })
      .Case([&](arith::ConstantOp constant) -> LogicalResult {
        auto tensor = dyn_cast<RankedTensorType>(constant.getType());
        if (!tensor)
          return lowerScalar(constant);
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!dense || !dense.isSplat())
          return constant.emitError("the GPU lowering supports only splat tile constants");
        Value s = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
        const LinearLayout &l = *layouts.lookup(constant);
        tiles[constant] = TileRegs{l, SmallVector<Value>(l.numRegs(), s), s};
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (other->getDialect() && isa<tile::TileDialect>(other->getDialect()))
          return other->emitError("the GPU lowering does not support this op yet");
        if (other->getNumRegions())
          return other->emitError("the GPU lowering does not support this region op");
        bool hasTile = llvm::any_of(other->getResultTypes(),
                                    [](Type t) { return isa<RankedTensorType>(t); });
        return hasTile ? lowerElementwise(other) : lowerScalar(other);
      });
}

LLVM::InlineAsmOp KernelLowering::inlineAsm(TypeRange results, ValueRange operands,
                                            StringRef text, StringRef constraints,
                                            bool sideEffects) {
  return LLVM::InlineAsmOp::create(b, loc, results, operands, b.getStringAttr(text),
                                   b.getStringAttr(constraints),
                                   sideEffects ? b.getUnitAttr() : UnitAttr(), UnitAttr(),
                                   LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
}

Value KernelLowering::castScalar(Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() < toFloat.getWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, value))
               : Value(arith::TruncFOp::create(b, loc, to, value));
  // i1 is a truth value: true converts to 1 (not to the -1 of a signed bit).
  bool truth = from.isInteger(1);
  if (!fromFloat && toFloat)
    return truth ? Value(arith::UIToFPOp::create(b, loc, to, value))
                 : Value(arith::SIToFPOp::create(b, loc, to, value));
  if (fromFloat && !toFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  if (from.getIntOrFloatBitWidth() >= to.getIntOrFloatBitWidth())
    return arith::TruncIOp::create(b, loc, to, value);
  return truth ? Value(arith::ExtUIOp::create(b, loc, to, value))
               : Value(arith::ExtSIOp::create(b, loc, to, value));
}

/// Creates `op` again on scalar operands with scalar result types.
static Operation *cloneOnScalars(OpBuilder &b, Operation *op, ValueRange operands,
                                 TypeRange resultTypes) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (NamedAttribute attr : op->getDiscardableAttrs())
    state.addAttribute(attr.getName(), attr.getValue());
  return b.create(state);
}

Operation *KernelLowering::scalarOp(Operation *op, ValueRange operands, TypeRange types) {
  // Math without a direct NVPTX lowering: exp(x) = exp2(x·log2 e),
  // log(x) = log2(x)·ln 2, and exp2, log2 and tanh through the approximate
  // PTX instructions. exp2 flushes subnormal results to zero (.ftz): one
  // MUFU.EX2, where llvm.exp2's ex2.approx.f32 costs four more instructions
  // per element to keep subnormals (below 2^-126, nothing a softmax weight
  // or an attention output can see).
  if (isa<math::ExpOp>(op)) {
    Value scaled = arith::MulFOp::create(b, loc, operands[0], constOf(types[0], M_LOG2E));
    if (!types[0].isF32())
      return math::Exp2Op::create(b, loc, scaled);
    return inlineAsm(types[0], scaled, "ex2.approx.ftz.f32 $0, $1;", "=f,f", false);
  }
  if (types.size() == 1 && types[0].isF32()) {
    if (isa<math::Exp2Op>(op))
      return inlineAsm(types[0], operands, "ex2.approx.ftz.f32 $0, $1;", "=f,f", false);
    if (isa<math::TanhOp>(op))
      return inlineAsm(types[0], operands, "tanh.approx.f32 $0, $1;", "=f,f", false);
    if (isa<math::Log2Op>(op))
      return inlineAsm(types[0], operands, "lg2.approx.f32 $0, $1;", "=f,f", false);
    if (isa<math::LogOp>(op)) {
      Operation *log2 = inlineAsm(types[0], operands, "lg2.approx.f32 $0, $1;", "=f,f", false);
      return arith::MulFOp::create(b, loc, log2->getResult(0), constOf(types[0], M_LN2));
    }
  }
  return cloneOnScalars(b, op, operands, types);
}

LogicalResult KernelLowering::lowerScalar(Operation *op) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto it = scalars.find(operand);
    if (it == scalars.end())
      return op->emitError("the GPU lowering cannot map this op's operands");
    operands.push_back(it->second);
  }
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(scalarType(type));
  Operation *made = scalarOp(op, operands, types);
  for (auto [old, result] : llvm::zip(op->getResults(), made->getResults()))
    scalars[old] = result;
  return success();
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  const LinearLayout *l = layouts.lookup(op->getResult(0));
  if (!l)
    return op->emitError("the GPU lowering found no layout for this tile");
  SmallVector<TileRegs> operands;
  SmallVector<Value> scalarOperands;
  for (Value operand : op->getOperands()) {
    if (isa<RankedTensorType>(operand.getType()))
      operands.push_back(operandIn(operand, *l));
    else
      operands.push_back(TileRegs{*l, SmallVector<Value>(l->numRegs(), scalars[operand]), {}});
  }
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(scalarType(type));
  SmallVector<TileRegs> results(op->getNumResults(), TileRegs{*l, {}, {}});
  for (int64_t r = 0; r < l->numRegs(); ++r) {
    SmallVector<Value> regOperands;
    for (const TileRegs &t : operands)
      regOperands.push_back(t.regs[r]);
    Operation *made = scalarOp(op, regOperands, types);
    for (unsigned i = 0; i < made->getNumResults(); ++i)
      results[i].regs.push_back(made->getResult(i));
  }
  for (auto [old, regs] : llvm::zip(op->getResults(), results))
    tiles[old] = regs;
  return success();
}

} // namespace tilec::lowering

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

using namespace tilec::lowering;

struct TileToLLVM : tilec::impl::TileToLLVMBase<TileToLLVM> {
  using TileToLLVMBase::TileToLLVMBase;

  /// tile.scale_rows as a multiply by its factors broadcast along the rows
  /// (in the layouts the types carry, if any): this lowering multiplies
  /// every step (convert-tilegpu-to-nvvm's skips where a warp's factors
  /// are all 1).
  static void expandScaleRows(func::FuncOp kernel) {
    SmallVector<tile::ScaleRowsOp> ops;
    kernel.walk([&](tile::ScaleRowsOp op) { ops.push_back(op); });
    for (tile::ScaleRowsOp op : ops) {
      OpBuilder b(op);
      RankedTensorType factor = op.getFactor().getType();
      auto column = RankedTensorType::get({factor.getDimSize(0), 1}, factor.getElementType());
      if (FailureOr<tilec::LinearLayout> rows = tilegpu::getLinearLayout(factor); succeeded(rows))
        column = tilegpu::withLayout(column, rows->expandDims(1));
      Value expanded = tile::ExpandDimsOp::create(b, op.getLoc(), column, op.getFactor(), 1);
      Value wide = tile::BroadcastOp::create(b, op.getLoc(), op.getType(), expanded);
      op.replaceAllUsesWith(arith::MulFOp::create(b, op.getLoc(), op.getX(), wide).getResult());
      op.erase();
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels(module.getOps<func::FuncOp>());
    if (pipelineStages < 0 || pipelineStages > 8) {
      module.emitError("pipeline-stages must be in [0, 8], got ")
          << static_cast<int64_t>(pipelineStages);
      return signalPassFailure();
    }
    if (minBlocksPerSM < 0 || minBlocksPerSM > 32) {
      module.emitError("min-blocks-per-sm must be in [0, 32], got ")
          << static_cast<int64_t>(minBlocksPerSM);
      return signalPassFailure();
    }
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))) {
      module.emitError("num-warps must be a power of two in [1, 32], got ") << numWarps;
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToStart(module.getBody());
    if (!module.lookupSymbol("tilec_smem"))
      LLVM::GlobalOp::create(b, module.getLoc(),
                             LLVM::LLVMArrayType::get(b.getI8Type(), 0), /*isConstant=*/false,
                             LLVM::Linkage::External, "tilec_smem", Attribute(),
                             /*alignment=*/wgmma ? 1024 : 16, /*addrSpace=*/kShared);
    for (func::FuncOp kernel : kernels) {
      if (kernel.isExternal()) {
        kernel.emitError("'") << kernel.getName() << "' is a declaration; a kernel needs a body";
        return signalPassFailure();
      }
      expandScaleRows(kernel);
      tilec::LayoutAssignment layouts(kernel, numWarps);
      if (failed(layouts.run()))
        return signalPassFailure();
      KernelLowering lowering(kernel, layouts, assumeAligned, pipelineStages, aInShared,
                              minBlocksPerSM, wgmma);
      if (failed(lowering.run()))
        return signalPassFailure();
      kernel.erase();
    }
  }
};

} // namespace
