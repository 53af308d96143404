//===- TileToLLVMMemory.cpp - global and shared-memory accesses -------------===//
//
// Block loads and stores through descriptors (16-byte vectors when allowed,
// predicated scalars otherwise, padding and dropped stores at the edges),
// loads and stores through tiles of pointers, and 32-bit word packing.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

namespace tilec::lowering {

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The PTX register class and width for a loaded or stored element.
static std::pair<const char *, unsigned> registerClass(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return {"l", 64};
  switch (type.getIntOrFloatBitWidth()) {
  case 16: return {"h", 16};
  case 32: return {"r", 32};
  case 64: return {"l", 64};
  default: return {nullptr, 0};
  }
}

Value KernelLowering::predicatedLoad(Value ptr, Value pred, Type type, Value other,
                                     Operation *op) {
  auto [cls, bits] = registerClass(type);
  if (!cls) {
    op->emitError("the GPU lowering loads 16-, 32- and 64-bit elements, not ") << type;
    return {};
  }
  Type bitsType = b.getIntegerType(bits);
  Value otherBits = other.getType() == bitsType
                        ? other
                        : Value(LLVM::BitcastOp::create(b, loc, bitsType, other));
  std::string asmText = "mov.b" + std::to_string(bits) + " $0, $3;\n\t@$2 ld.global.b" +
                        std::to_string(bits) + " $0, [$1];";
  std::string constraints = std::string("=") + cls + ",l,b," + cls;
  auto asmOp = inlineAsm(bitsType, ValueRange{ptr, pred, otherBits}, asmText, constraints,
                         /*sideEffects=*/true);
  Value loaded = asmOp.getResult(0);
  return type == bitsType ? loaded : Value(LLVM::BitcastOp::create(b, loc, type, loaded));
}

void KernelLowering::predicatedStore(Value ptr, Value value, Value pred) {
  auto [cls, bits] = registerClass(value.getType());
  Type bitsType = b.getIntegerType(bits);
  Value valueBits = value.getType() == bitsType
                        ? value
                        : Value(LLVM::BitcastOp::create(b, loc, bitsType, value));
  std::string asmText = "@$2 st.global.b" + std::to_string(bits) + " [$0], $1;";
  std::string constraints = std::string("l,") + cls + ",b";
  inlineAsm(TypeRange{}, ValueRange{ptr, valueBits, pred}, asmText, constraints,
            /*sideEffects=*/true);
}

/// Address and in-bounds predicate of one element of a block access.
static std::pair<Value, Value> blockElement(OpBuilder &b, Location loc, const Descriptor &d,
                                            ValueRange offsets, ArrayRef<Value> coords,
                                            Type ptrType) {
  Value inBounds, index;
  for (size_t dim = 0; dim < coords.size(); ++dim) {
    Value pos = arith::AddIOp::create(b, loc, offsets[dim], coords[dim]);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos, d.shape[dim]);
    inBounds = inBounds ? Value(arith::AndIOp::create(b, loc, inBounds, inside)) : inside;
    Value term = arith::MulIOp::create(
        b, loc, arith::ExtSIOp::create(b, loc, b.getI64Type(), pos), d.strides[dim]);
    index = index ? Value(arith::AddIOp::create(b, loc, index, term)) : term;
  }
  Value ptr = LLVM::GEPOp::create(b, loc, ptrType, d.elementType, d.base, ValueRange{index});
  return {ptr, inBounds};
}


Value KernelLowering::vectorAccessAllowed(const Descriptor &d, ArrayRef<Value> offsets,
                                          int64_t width) {
  size_t last = d.shape.size() - 1;
  unsigned bytes = d.elementType.getIntOrFloatBitWidth() / 8;
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 v.getType().isInteger(64) ? constI64(0) : constI32(0));
  };
  auto remainder = [&](Value v, int64_t by) {
    return arith::RemSIOp::create(
        b, loc, v, v.getType().isInteger(64) ? constI64(by) : constI32(by));
  };
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d.strides[last],
                                   constI64(1));
  Value address = LLVM::PtrToIntOp::create(b, loc, i64(), d.base);
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(address, width * bytes)));
  for (size_t dim = 0; dim < last; ++dim)
    ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(d.strides[dim], width)));
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(d.shape[last], width)));
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(offsets[last], width)));
  return ok;
}

void KernelLowering::requireAligned(const Descriptor &d, Value offset, int64_t width) {
  if (auto arg = dyn_cast<BlockArgument>(d.base))
    alignedArgs.insert(arg.getArgNumber());
  trapUnlessVectorOffset(offset, width);
}

void KernelLowering::trapUnlessVectorOffset(Value offset, int64_t width) {
  // With aligned tensors, a block offset along the last dimension that is not
  // a multiple of the vector width would read the wrong elements: stop the
  // kernel loudly instead (the block sizes of tilec's kernels never do this).
  Value misaligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemSIOp::create(b, loc, offset, constI32(width)), constI32(0));
  auto guard = scf::IfOp::create(b, loc, TypeRange{}, misaligned, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  LLVM::Trap::create(b, loc);
}

SmallVector<Value> KernelLowering::loadVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                               const LinearLayout &l, int64_t width,
                                               Value padding) {
  Type element = d.elementType;
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t words = width * bits / 32, perWord = 32 / bits;
  Value padWord = packWord(SmallVector<Value>(perWord, padding));
  std::string text, constraints;
  for (int64_t w = 0; w < words; ++w) {
    text += "mov.b32 $" + std::to_string(w) + ", $" + std::to_string(words + 2) + ";\n\t";
    constraints += "=r,";
  }
  text += "@$" + std::to_string(words + 1) + " ld.global";
  text += words == 1 ? ".b32 $0" : ".v" + std::to_string(words) + ".b32 {";
  for (int64_t w = 0; words > 1 && w < words; ++w)
    text += (w ? ", $" : "$") + std::to_string(w);
  text += words == 1 ? "" : "}";
  text += ", [$" + std::to_string(words) + "];";
  constraints += "l,b,r";
  Type result = words == 1 ? Type(i32())
                           : LLVM::LLVMStructType::getLiteral(
                                 b.getContext(), SmallVector<Type>(words, i32()));
  SmallVector<Value> regs;
  for (int64_t first = 0; first < l.numRegs(); first += width) {
    auto [ptr, inBounds] = blockElement(b, loc, d, offsets, coords(l, first), ptrType(kGlobal));
    Value loaded = inlineAsm(result, ValueRange{ptr, inBounds, padWord}, text, constraints,
                             /*sideEffects=*/true)
                       .getResult(0);
    for (int64_t w = 0; w < words; ++w) {
      Value word = words == 1 ? loaded
                              : Value(LLVM::ExtractValueOp::create(b, loc, loaded,
                                                                   ArrayRef<int64_t>{w}));
      SmallVector<Value> elements = unpackWord(word, element);
      regs.append(elements.begin(), elements.end());
    }
  }
  return regs;
}

void KernelLowering::storeVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                  const TileRegs &value, int64_t width) {
  unsigned bits = d.elementType.getIntOrFloatBitWidth();
  int64_t words = width * bits / 32, perWord = 32 / bits;
  // Operands: address, predicate, then the words.
  std::string text, constraints = "l,b";
  for (int64_t w = 0; w < words; ++w)
    constraints += ",r";
  if (words == 1) {
    text = "@$1 st.global.b32 [$0], $2;";
  } else {
    text = "@$1 st.global.v" + std::to_string(words) + ".b32 [$0], {";
    for (int64_t w = 0; w < words; ++w)
      text += (w ? ", $" : "$") + std::to_string(w + 2);
    text += "};";
  }
  for (int64_t first = 0; first < value.layout.numRegs(); first += width) {
    auto [ptr, inBounds] =
        blockElement(b, loc, d, offsets, coords(value.layout, first), ptrType(kGlobal));
    SmallVector<Value> operands = {ptr, inBounds};
    for (int64_t w = 0; w < words; ++w)
      operands.push_back(packWord(ArrayRef<Value>(value.regs).slice(first + w * perWord, perWord)));
    inlineAsm(TypeRange{}, operands, text, constraints, /*sideEffects=*/true);
  }
}

Value KernelLowering::packWord(ArrayRef<Value> elements) {
  if (elements.size() == 1)
    return elements[0].getType() == i32()
               ? elements[0]
               : Value(LLVM::BitcastOp::create(b, loc, i32(), elements[0]));
  Type vector = VectorType::get({static_cast<int64_t>(elements.size())}, elements[0].getType());
  Value v = LLVM::UndefOp::create(b, loc, vector);
  for (size_t i = 0; i < elements.size(); ++i)
    v = LLVM::InsertElementOp::create(b, loc, v, elements[i], constI32(i));
  return LLVM::BitcastOp::create(b, loc, i32(), v);
}

SmallVector<Value> KernelLowering::unpackWord(Value word, Type element) {
  unsigned count = 32 / element.getIntOrFloatBitWidth();
  if (count == 1)
    return {element == i32() ? word : Value(LLVM::BitcastOp::create(b, loc, element, word))};
  Type vector = VectorType::get({count}, element);
  Value v = LLVM::BitcastOp::create(b, loc, vector, word);
  SmallVector<Value> out;
  for (unsigned i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, v, constI32(i)));
  return out;
}

LogicalResult KernelLowering::lowerLoadBlock(tile::LoadBlockOp op) {
  if (!descriptors.count(op.getDesc()))
    return op.emitError("the GPU lowering needs the descriptor made by tile.make_desc in the kernel");
  const Descriptor &d = descriptors[op.getDesc()];
  const LinearLayout &l = *layouts.lookup(op);
  SmallVector<Value> offsets;
  for (Value o : op.getOffsets())
    offsets.push_back(scalars[o]);
  Type element = d.elementType;
  if (!registerClass(element).first)
    return op.emitError("the GPU lowering loads 16-, 32- and 64-bit elements, not ") << element;
  Value padding =
      op.getPadding() == tile::PaddingOption::nan
          ? constOf(element, std::numeric_limits<double>::quiet_NaN())
          : constOf(element, 0.0);
  auto scalarLoads = [&]() {
    SmallVector<Value> regs;
    for (int64_t r = 0; r < l.numRegs(); ++r) {
      auto [ptr, inBounds] = blockElement(b, loc, d, offsets, coords(l, r), ptrType(kGlobal));
      regs.push_back(predicatedLoad(ptr, inBounds, element, padding, op));
    }
    return regs;
  };
  TileRegs out{l, {}, {}};
  int64_t width = l.vectorWidth(element.getIntOrFloatBitWidth());
  if (width == 1 || element.getIntOrFloatBitWidth() > 32) {
    out.regs = scalarLoads();
  } else if (assumeAligned) {
    requireAligned(d, offsets.back(), width);
    out.regs = loadVectors(d, offsets, l, width, padding);
  } else {
    // Vector accesses need the tensor contiguous and aligned along its last
    // dimension; that is known only at run time, so both paths exist and a
    // uniform branch picks one.
    Value vectorOk = vectorAccessAllowed(d, offsets, width);
    auto branch = scf::IfOp::create(b, loc, SmallVector<Type>(l.numRegs(), element), vectorOk,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      scf::YieldOp::create(b, loc, loadVectors(d, offsets, l, width, padding));
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(b, loc, scalarLoads());
    }
    out.regs.assign(branch.getResults().begin(), branch.getResults().end());
  }
  tiles[op] = out;
  return success();
}

LogicalResult KernelLowering::lowerStoreBlock(tile::StoreBlockOp op) {
  if (!descriptors.count(op.getDesc()))
    return op.emitError("the GPU lowering needs the descriptor made by tile.make_desc in the kernel");
  const Descriptor &d = descriptors[op.getDesc()];
  const TileRegs &value = tiles[op.getValue()];
  if (!registerClass(d.elementType).first)
    return op.emitError("the GPU lowering stores 16-, 32- and 64-bit elements, not ")
           << d.elementType;
  SmallVector<Value> offsets;
  for (Value o : op.getOffsets())
    offsets.push_back(scalars[o]);
  TileRegs src = value.splat ? convert(value, layouts.defaultLayout(op.getValue().getType()),
                                       d.elementType)
                             : value;
  auto scalarStores = [&]() {
    for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
      auto [ptr, inBounds] =
          blockElement(b, loc, d, offsets, coords(src.layout, r), ptrType(kGlobal));
      predicatedStore(ptr, src.regs[r], inBounds);
    }
  };
  unsigned bits = d.elementType.getIntOrFloatBitWidth();
  int64_t width = src.layout.vectorWidth(bits);
  if (width == 1 || bits > 32) {
    scalarStores();
    return success();
  }
  alignedOrBranch(d, offsets, width, [&] { storeVectors(d, offsets, src, width); }, scalarStores);
  return success();
}

void KernelLowering::alignedOrBranch(const Descriptor &d, ArrayRef<Value> offsets, int64_t width,
                                     function_ref<void()> aligned,
                                     function_ref<void()> fallback) {
  if (assumeAligned) {
    requireAligned(d, offsets.back(), width);
    aligned();
    return;
  }
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, vectorAccessAllowed(d, offsets, width),
                                  /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.getThenRegion().front().getTerminator());
  aligned();
  b.setInsertionPoint(branch.getElseRegion().front().getTerminator());
  fallback();
}

LogicalResult KernelLowering::lowerAtomicAddBlock(tile::AtomicAddBlockOp op) {
  if (!descriptors.count(op.getDesc()))
    return op.emitError("the GPU lowering needs the descriptor made by tile.make_desc in the kernel");
  const Descriptor &d = descriptors[op.getDesc()];
  const TileRegs &value = tiles[op.getValue()];
  TileRegs src = value.splat ? convert(value, layouts.defaultLayout(op.getValue().getType()),
                                       d.elementType)
                             : value;
  // Each element added once: by the copy with clear replica bits.
  std::optional<LinearLayout::SingleCopy> single = src.layout.singleCopy();
  if (!single)
    return op.emitError("the GPU lowering adds a tile atomically only from a layout whose "
                        "copies of an element differ in zero lane or warp bits; got ")
           << src.layout.str();
  Value owner = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (auto [id, mask] : {std::pair{lane, single->laneMask}, std::pair{warp, single->warpMask}})
    if (mask)
      owner = arith::AndIOp::create(
          b, loc, owner,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                arith::AndIOp::create(b, loc, id, constI32(mask)), constI32(0)));
  SmallVector<Value> offsets;
  for (Value o : op.getOffsets())
    offsets.push_back(scalars[o]);
  auto scalarAdds = [&] {
    for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
      if (single->repeatedReg[r])
        continue;
      auto [ptr, inBounds] =
          blockElement(b, loc, d, offsets, coords(src.layout, r), ptrType(kGlobal));
      Value pred = arith::AndIOp::create(b, loc, inBounds, owner);
      inlineAsm(TypeRange{}, ValueRange{ptr, src.regs[r], pred},
                "@$2 red.global.add.f32 [$0], $1;", "l,f,b", /*sideEffects=*/true);
    }
  };
  // sm_90 (the wgmma targets): rows through shared memory, one bulk
  // reduction each (16-byte aligned rows: checked at launch in aligned
  // kernels, else here with the red.global path as the fallback).
  int64_t cols = src.layout.shape().back();
  if (!wgmma || (cols * 4) % 16 != 0) {
    scalarAdds();
    return success();
  }
  alignedOrBranch(d, offsets, /*width=*/4, [&] { bulkAddRows(d, offsets, src, *single); },
                  scalarAdds);
  return success();
}

void KernelLowering::bulkAddRows(const Descriptor &d, ArrayRef<Value> offsets,
                                 const TileRegs &src, const LinearLayout::SingleCopy &single) {
  ArrayRef<int64_t> shape = src.layout.shape();
  const int64_t cols = shape.back(), rank = shape.size();
  int64_t rows = 1;
  for (int64_t dim = 0; dim + 1 < rank; ++dim)
    rows *= shape[dim];
  // Rows padded by 32 bytes: the eight rows a warp's accumulator registers
  // cover fall on different banks.
  const int64_t pitch = cols + 8;
  sharedBytes = std::max(sharedBytes, rows * pitch * 4);
  Type f32 = b.getF32Type();
  barrier(); // the scratch area may still be read by an earlier exchange
  for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
    if (single.repeatedReg[r])
      continue;
    SmallVector<Value> c = coords(src.layout, r);
    Value row = rank == 1 ? constI32(0) : linear(ArrayRef(c).drop_back(), shape.drop_back());
    Value index = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constI32(pitch)), c.back());
    LLVM::StoreOp::create(b, loc, src.regs[r], sharedAddress(index, f32));
  }
  // The rows are read by the async proxy: each writer fences, then all meet.
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(), NVVM::SharedSpace::shared_cta));
  barrier();
  // Thread t reduces rows t, t + threads, ... into the tensor, each row one
  // cp.reduce.async.bulk of its columns inside the tensor (a multiple of 16
  // bytes: the size and the offset are multiples of 4 elements), where the
  // row lies in the tensor.
  const int64_t threads = layouts.warps() * 32;
  Value tid = threadId();
  for (int64_t first = 0; first < rows; first += threads) {
    Value row = arith::AddIOp::create(b, loc, tid, constI32(first));
    SmallVector<Value> rowCoords(rank, constI32(0));
    Value rest = row;
    for (int64_t dim = rank - 2; dim >= 0; --dim) {
      rowCoords[dim] = arith::RemUIOp::create(b, loc, rest, constI32(shape[dim]));
      rest = arith::DivUIOp::create(b, loc, rest, constI32(shape[dim]));
    }
    auto [ptr, inBounds] = blockElement(b, loc, d, offsets, rowCoords, ptrType(kGlobal));
    Value pred = arith::AndIOp::create(
        b, loc, inBounds,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, constI32(rows)));
    Value from = LLVM::PtrToIntOp::create(
        b, loc, i32(),
        sharedAddress(arith::MulIOp::create(b, loc, row, constI32(pitch)), f32));
    // The byte count is worked out next to its use (held across the loop
    // that contains this, it costs a register the kernel may not have).
    inlineAsm(TypeRange{}, ValueRange{ptr, from, d.shape.back(), offsets.back(), pred},
              "{\n\t.reg .s32 n;\n\tsub.s32 n, $2, $3;\n\tmin.s32 n, n, " +
                  std::to_string(cols) +
                  ";\n\tshl.b32 n, n, 2;\n\t@$4 "
                  "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [$0], [$1], "
                  "n;\n\t}",
              "l,r,r,r,b", /*sideEffects=*/true);
  }
  // Shared memory may be written again once the reductions have read it
  // (every later use of the scratch area starts with a barrier).
  inlineAsm(TypeRange{}, ValueRange{},
            "cp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;", "",
            /*sideEffects=*/true);
}

LogicalResult KernelLowering::lowerLoad(tile::LoadOp op) {
  const LinearLayout &l = *layouts.lookup(op);
  TileRegs ptrs = operandIn(op.getPtr(), l);
  Type element = getElementTypeOrSelf(op.getType());
  Value other = op.getOther() ? scalars[op.getOther()] : constOf(element, 0.0);
  std::optional<TileRegs> mask;
  if (op.getMask())
    mask = operandIn(op.getMask(), l);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  TileRegs out{l, {}, {}};
  for (int64_t r = 0; r < l.numRegs(); ++r) {
    Value v = predicatedLoad(ptrs.regs[r], mask ? mask->regs[r] : always, element, other, op);
    if (!v)
      return failure();
    out.regs.push_back(v);
  }
  tiles[op] = out;
  return success();
}

LogicalResult KernelLowering::lowerStore(tile::StoreOp op) {
  const LinearLayout &l = *layouts.lookup(op.getPtr());
  TileRegs ptrs = tiles[op.getPtr()];
  TileRegs value = operandIn(op.getValue(), l);
  if (!registerClass(value.regs[0].getType()).first)
    return op.emitError("the GPU lowering stores 16-, 32- and 64-bit elements");
  std::optional<TileRegs> mask;
  if (op.getMask())
    mask = operandIn(op.getMask(), l);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (int64_t r = 0; r < l.numRegs(); ++r)
    predicatedStore(ptrs.regs[r], value.regs[r], mask ? mask->regs[r] : always);
  return success();
}

} // namespace tilec::lowering
