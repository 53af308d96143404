//===- GlobalToNVVM.cpp - the grid, and block loads and stores in registers ===//
//
// `tile.load_block` / `tile.store_block` on distributed tiles: each thread
// reads or writes the elements its registers hold, at the descriptor's base
// plus the coordinates times the strides, each one only where it lies
// inside the tensor's shape (elsewhere a load yields the padding value).
// Registers that hold consecutive elements of a row move together, up to 16
// bytes per predicated ld/st.global (planVectorBlockAccesses decides: the
// tensors of an aligned kernel are checked at launch, others at run time).
// Streamed loads do not come here: tilegpu-pipeline-streams makes them
// cp.async copies into shared memory.
//
//===----------------------------------------------------------------------===//

#include "../ArrivalPTX.h"
#include "Common.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;
namespace tile = tilec::tile;

namespace {

/// `%ctaid` (program_id) or `%nctaid` (num_programs) along the axis.
template <typename GridOp, typename X, typename Y, typename Z>
struct GridQueryLowering : OpConversionPattern<GridOp> {
  using OpConversionPattern<GridOp>::OpConversionPattern;
  LogicalResult matchAndRewrite(GridOp op, typename GridOp::Adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Type i32 = rewriter.getI32Type();
    Value value;
    switch (op.getAxis()) {
    case 0: value = X::create(rewriter, op.getLoc(), i32); break;
    case 1: value = Y::create(rewriter, op.getLoc(), i32); break;
    default: value = Z::create(rewriter, op.getLoc(), i32); break;
    }
    rewriter.replaceOp(op, value);
    return success();
  }
};

/// The global address and in-bounds flag of each of this thread's
/// registers of a block at `offsets` of a descriptor (base, shape...,
/// strides...).
class BlockAccess {
public:
  BlockAccess(OpBuilder &b, Location loc, const tilec::LinearLayout &layout, Value desc,
              ValueRange offsets, Type element, bool ownThreadIndex = false)
      : b(b), loc(loc), coordinates(b, loc, layout, ownThreadIndex), element(element) {
    int64_t rank = layout.rank();
    base = LLVM::ExtractValueOp::create(b, loc, desc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(LLVM::ExtractValueOp::create(b, loc, desc, 1 + d));
      strides.push_back(LLVM::ExtractValueOp::create(b, loc, desc, 1 + rank + d));
    }
    this->offsets.assign(offsets.begin(), offsets.end());
  }

  /// Whether `width` consecutive elements along the last dimension may move
  /// as one vector: the tensor contiguous there, its base, other strides,
  /// last size and the block's offset there multiples of the width.
  Value vectorsAllowed(int64_t width) {
    size_t last = shape.size() - 1;
    unsigned bytes = element.getIntOrFloatBitWidth() / 8;
    auto multipleOf = [&](Value v, int64_t by) {
      Value divisor = LLVM::ConstantOp::create(b, loc, v.getType(), b.getIntegerAttr(v.getType(), by));
      Value zero = LLVM::ConstantOp::create(b, loc, v.getType(), b.getIntegerAttr(v.getType(), 0));
      return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                  LLVM::URemOp::create(b, loc, v, divisor), zero)
          .getResult();
    };
    Value one = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
    Value ok = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, strides[last], one);
    auto both = [&](Value more) { ok = LLVM::AndOp::create(b, loc, ok, more); };
    both(multipleOf(LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), base), width * bytes));
    for (size_t d = 0; d < last; ++d)
      both(multipleOf(strides[d], width));
    both(multipleOf(shape[last], width));
    both(multipleOf(offsets[last], width));
    return ok;
  }

  /// Traps unless the block's offset along the last dimension is a multiple
  /// of `width` (an aligned kernel's vectors would read the wrong elements;
  /// tilec's kernels never do this).
  void trapUnlessAligned(int64_t width) {
    Value offset = offsets.back();
    Value rem = LLVM::URemOp::create(b, loc, offset, constI32(b, loc, width));
    Value misaligned = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, rem, constI32(b, loc, 0));
    auto guard = scf::IfOp::create(b, loc, TypeRange{}, misaligned, /*withElseRegion=*/false);
    OpBuilder then = OpBuilder::atBlockBegin(&guard.getThenRegion().front());
    LLVM::Trap::create(then, loc);
  }

  /// Register `reg`'s element: its address, and whether it is inside the
  /// tensor (0 <= coordinate < size along every dimension).
  std::pair<Value, Value> at(int64_t reg) {
    SmallVector<Value> coords = coordinates.of(reg);
    Value index = LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(0));
    Value inside;
    for (auto [d, local] : llvm::enumerate(coords)) {
      Value coord = LLVM::AddOp::create(b, loc, local, offsets[d]);
      Value below = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, coord, shape[d]);
      inside = inside ? LLVM::AndOp::create(b, loc, inside, below).getResult() : below;
      Value wide = LLVM::SExtOp::create(b, loc, b.getI64Type(), coord);
      index = LLVM::AddOp::create(b, loc, index, LLVM::MulOp::create(b, loc, wide, strides[d]));
    }
    Value address = LLVM::GEPOp::create(b, loc, base.getType(), element, base, ValueRange{index});
    return {address, inside};
  }

private:
  OpBuilder &b;
  Location loc;
  TileCoordinates coordinates;
  Type element;
  Value base;
  SmallVector<Value> shape, strides, offsets;
};

/// The value read outside the tensor.
static Value paddingValue(OpBuilder &b, Location loc, Type element, tile::PaddingOption padding) {
  if (auto real = dyn_cast<FloatType>(element)) {
    llvm::APFloat value = padding == tile::PaddingOption::nan
                              ? llvm::APFloat::getQNaN(real.getFloatSemantics())
                              : llvm::APFloat::getZero(real.getFloatSemantics());
    return LLVM::ConstantOp::create(b, loc, element, b.getFloatAttr(element, value));
  }
  return LLVM::ConstantOp::create(b, loc, element, b.getIntegerAttr(element, 0));
}

/// The element at `address`, where `inside` holds (else `fallback`); no
/// branch without a condition.
static Value guardedLoad(OpBuilder &b, Location loc, Type element, Value address, Value inside,
                         Value fallback) {
  if (!inside)
    return LLVM::LoadOp::create(b, loc, element, address);
  auto branch = scf::IfOp::create(b, loc, TypeRange{element}, inside, /*withElseRegion=*/true);
  OpBuilder then = branch.getThenBodyBuilder();
  scf::YieldOp::create(then, loc, ValueRange{LLVM::LoadOp::create(then, loc, element, address)});
  OpBuilder otherwise = branch.getElseBodyBuilder();
  scf::YieldOp::create(otherwise, loc, ValueRange{fallback});
  return branch.getResult(0);
}

/// `value` stored at `address` where `inside` holds (always without one).
static void guardedStore(OpBuilder &b, Location loc, Value value, Value address, Value inside) {
  if (!inside) {
    LLVM::StoreOp::create(b, loc, value, address);
    return;
  }
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, inside, /*withElseRegion=*/false);
  OpBuilder then = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
  LLVM::StoreOp::create(then, loc, value, address);
}

/// One 32-bit word of 16- or 32-bit elements (and the elements of one).
static Value packWord(OpBuilder &b, Location loc, ArrayRef<Value> elements) {
  Type i32 = b.getI32Type();
  if (elements.size() == 1)
    return elements[0].getType() == i32 ? elements[0]
                                        : Value(LLVM::BitcastOp::create(b, loc, i32, elements[0]));
  auto vector = VectorType::get({static_cast<int64_t>(elements.size())}, elements[0].getType());
  Value word = LLVM::UndefOp::create(b, loc, vector);
  for (auto [i, e] : llvm::enumerate(elements))
    word = LLVM::InsertElementOp::create(b, loc, word, e, constI32(b, loc, i));
  return LLVM::BitcastOp::create(b, loc, i32, word);
}
static SmallVector<Value> unpackWord(OpBuilder &b, Location loc, Value word, Type element) {
  int64_t count = 32 / element.getIntOrFloatBitWidth();
  if (count == 1)
    return {element.isInteger(32) ? word : Value(LLVM::BitcastOp::create(b, loc, element, word))};
  Value vector = LLVM::BitcastOp::create(b, loc, VectorType::get({count}, element), word);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < count; ++i)
    elements.push_back(LLVM::ExtractElementOp::create(b, loc, vector, constI32(b, loc, i)));
  return elements;
}

/// `ld.global.v{1,2,4}.b32` of `words` words at `address` where `inside`
/// holds, else `fill` in every word: one predicated instruction, no branch.
static SmallVector<Value> loadWords(OpBuilder &b, Location loc, Value address, Value inside,
                                    int64_t words, Value fill) {
  std::string text, constraints, list;
  for (int64_t w = 0; w < words; ++w) {
    text += "mov.b32 $" + std::to_string(w) + ", $" + std::to_string(words + 2) + ";\n\t";
    constraints += "=r,";
    list += (w ? ", $" : "$") + std::to_string(w);
  }
  text += "@$" + std::to_string(words + 1) + " ld.global" +
          (words == 1 ? ".b32 " + list : ".v" + std::to_string(words) + ".b32 {" + list + "}") +
          ", [$" + std::to_string(words) + "];";
  constraints += "l,b,r";
  Type i32 = b.getI32Type();
  Type result = words == 1 ? i32
                           : LLVM::LLVMStructType::getLiteral(b.getContext(),
                                                              SmallVector<Type>(words, i32));
  Value loaded = sideEffectAsm(b, loc, result, ValueRange{address, inside, fill}, text, constraints);
  if (words == 1)
    return {loaded};
  return unpackRegisters(b, loc, loaded);
}

/// `st.global.v{1,2,4}.b32` of `words` at `address` where `inside` holds.
static void storeWords(OpBuilder &b, Location loc, Value address, Value inside,
                       ArrayRef<Value> words) {
  std::string list;
  for (size_t w = 0; w < words.size(); ++w)
    list += (w ? ", $" : "$") + std::to_string(w + 2);
  std::string text = "@$1 st.global" +
                     (words.size() == 1 ? ".b32 [$0], " + list
                                        : ".v" + std::to_string(words.size()) + ".b32 [$0], {" +
                                              list + "}") +
                     ";";
  std::string constraints = "l,b";
  for (size_t w = 0; w < words.size(); ++w)
    constraints += ",r";
  SmallVector<Value> operands{address, inside};
  operands.append(words.begin(), words.end());
  sideEffectAsmOp(b, loc, TypeRange{}, operands, text, constraints);
}

/// The vector width planVectorBlockAccesses chose for a block access (1:
/// element by element).
static int64_t vectorWidthOf(Operation *op) {
  auto width = op->getAttrOfType<IntegerAttr>(kVectorWidth);
  return width ? width.getInt() : 1;
}

/// Runs `vectors` when the access may use vectors of `width` (always for
/// an aligned kernel's tensors, after the offset check; else as a uniform
/// branch on the run-time check), else `scalars`; results of `types`.
template <typename Vectors, typename Scalars>
static SmallVector<Value> eitherAccess(OpBuilder &b, Location loc, Operation *op,
                                       BlockAccess &access, int64_t width, TypeRange types,
                                       Vectors vectors, Scalars scalars) {
  if (op->hasAttr(kAlignedAccess)) {
    access.trapUnlessAligned(width);
    return vectors();
  }
  auto branch = scf::IfOp::create(b, loc, types, access.vectorsAllowed(width),
                                  /*withElseRegion=*/true);
  // Without results the regions come with their yields already.
  auto fill = [&](Region &region, auto body) {
    OpBuilder::InsertionGuard guard(b);
    Block &block = region.front();
    if (types.empty()) {
      b.setInsertionPoint(block.getTerminator());
      body();
    } else {
      b.setInsertionPointToStart(&block);
      scf::YieldOp::create(b, loc, body());
    }
  };
  fill(branch.getThenRegion(), vectors);
  fill(branch.getElseRegion(), scalars);
  return SmallVector<Value>(branch.getResults());
}

struct LoadBlockLowering : OpConversionPattern<tile::LoadBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::LoadBlockOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getType());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    Type element = getTypeConverter()->convertType(op.getType().getElementType());
    BlockAccess access(rewriter, loc, *layout, adaptor.getDesc(), adaptor.getOffsets(), element);
    Value padding = paddingValue(rewriter, loc, element, op.getPadding());
    auto scalars = [&] {
      SmallVector<Value> values;
      for (int64_t r = 0; r < layout->numRegs(); ++r) {
        auto [address, inside] = access.at(r);
        values.push_back(guardedLoad(rewriter, loc, element, address, inside, padding));
      }
      return values;
    };
    int64_t width = vectorWidthOf(op);
    SmallVector<Value> values;
    if (width == 1) {
      values = scalars();
    } else {
      int64_t perWord = 32 / element.getIntOrFloatBitWidth(), words = width / perWord;
      auto vectors = [&] {
        Value fill = packWord(rewriter, loc, SmallVector<Value>(perWord, padding));
        SmallVector<Value> values;
        for (int64_t first = 0; first < layout->numRegs(); first += width) {
          auto [address, inside] = access.at(first);
          for (Value word : loadWords(rewriter, loc, address, inside, words, fill))
            llvm::append_range(values, unpackWord(rewriter, loc, word, element));
        }
        return values;
      };
      values = eitherAccess(rewriter, loc, op, access, width,
                            SmallVector<Type>(layout->numRegs(), element), vectors, scalars);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// Whether block store `op` computes its addresses from its own read of
/// %tid.x (TileCoordinates' ownThreadIndex) instead of the kernel's, which
/// LLVM merges with every other read and so may compute the addresses
/// ahead of the loops and hold them through them. Two places, as measured
/// (bench/RESULTS.md, session 19):
/// - in a loop around loops (a persistent grid's tile loop): held through
///   every inner loop of every tile, they spilled 20-148 bytes;
/// - after the loops of a kernel whose consumer warpgroups run side by
///   side beside a producer warpgroup (warp-specialized, no ping-pong:
///   dK/dV, 240 registers each with two accumulators): 16 spilled bytes.
/// Elsewhere the early addresses fit, and computing them late measured
/// 0.5-2.6 % slower in some forward kernels.
static bool readsOwnThreadIndex(Operation *op) {
  if (auto loop = op->getParentOfType<LoopLikeOpInterface>()) {
    WalkResult nested = loop->walk([&](LoopLikeOpInterface inner) {
      return inner == loop ? WalkResult::advance() : WalkResult::interrupt();
    });
    return nested.wasInterrupted();
  }
  auto target = op->getParentOfType<ModuleOp>()->getAttrOfType<DictionaryAttr>("tilec.target");
  auto flag = [&](StringRef name) {
    auto value = target ? target.getAs<BoolAttr>(name) : BoolAttr();
    return value && value.getValue();
  };
  return flag("warp_specialize") && !flag("ping_pong");
}

struct StoreBlockLowering : OpConversionPattern<tile::StoreBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::StoreBlockOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    Type element = getTypeConverter()->convertType(type.getElementType());
    bool ownThreadIndex = readsOwnThreadIndex(op);
    BlockAccess access(rewriter, loc, *layout, adaptor.getDesc(), adaptor.getOffsets(), element,
                       ownThreadIndex);
    SmallVector<Value> registers = unpackRegisters(rewriter, loc, adaptor.getValue());
    auto scalars = [&] {
      for (int64_t r = 0; r < layout->numRegs(); ++r) {
        auto [address, inside] = access.at(r);
        guardedStore(rewriter, loc, registers[r], address, inside);
      }
      return SmallVector<Value>();
    };
    int64_t width = vectorWidthOf(op);
    if (width == 1) {
      scalars();
    } else {
      int64_t perWord = 32 / element.getIntOrFloatBitWidth();
      auto vectors = [&] {
        for (int64_t first = 0; first < layout->numRegs(); first += width) {
          auto [address, inside] = access.at(first);
          SmallVector<Value> words;
          for (int64_t w = first; w < first + width; w += perWord)
            words.push_back(packWord(rewriter, loc, ArrayRef(registers).slice(w, perWord)));
          storeWords(rewriter, loc, address, inside, words);
        }
        return SmallVector<Value>();
      };
      eitherAccess(rewriter, loc, op, access, width, TypeRange{}, vectors, scalars);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each element added into global memory once, by the copy
/// LinearLayout::singleCopy picks, with a predicated `red.global.add.f32`
/// (an atomic add without result); elements outside the tensor are
/// skipped.
struct AtomicAddBlockLowering : OpConversionPattern<tile::AtomicAddBlockOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::AtomicAddBlockOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getValue().getType());
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    std::optional<tilec::LinearLayout::SingleCopy> single = layout->singleCopy();
    if (!single)
      return op.emitOpError("cannot add atomically from a layout whose copies of an element "
                            "do not differ in zero lane or warp bits: ")
             << layout->str();
    Type element = getTypeConverter()->convertType(type.getElementType());
    BlockAccess access(rewriter, loc, *layout, adaptor.getDesc(), adaptor.getOffsets(), element);
    SmallVector<Value> registers = unpackRegisters(rewriter, loc, adaptor.getValue());
    Value tid = threadIndex(rewriter, loc);
    Value owner = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                           rewriter.getBoolAttr(true));
    for (auto [mask, shift] : {std::pair{single->laneMask, 0}, std::pair{single->warpMask, 5}}) {
      if (!mask)
        continue;
      Value bits = LLVM::AndOp::create(rewriter, loc, tid, constI32(rewriter, loc, mask << shift));
      Value clear = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, bits,
                                         constI32(rewriter, loc, 0));
      owner = LLVM::AndOp::create(rewriter, loc, owner, clear);
    }
    for (int64_t r = 0; r < layout->numRegs(); ++r) {
      if (single->repeatedReg[r])
        continue;
      auto [address, inside] = access.at(r);
      Value guard = inside ? Value(LLVM::AndOp::create(rewriter, loc, inside, owner)) : owner;
      sideEffectAsmOp(rewriter, loc, TypeRange{}, ValueRange{address, registers[r], guard},
                      "@$2 red.global.add.f32 [$0], $1;", "l,f,b");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The pointee type of a pointer or of a tile of pointers.
static Type pointeeOf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    type = tensor.getElementType();
  return cast<tile::PointerType>(type).getPointeeType();
}

/// Each register's pointer advanced by its offset (or the scalar one).
struct AddPtrLowering : OpConversionPattern<tile::AddPtrOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::AddPtrOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(pointeeOf(op.getType()));
    auto pointer = LLVM::LLVMPointerType::get(getContext(), kGlobalSpace);
    auto advance = [&](Value base, Value offset) {
      return LLVM::GEPOp::create(rewriter, loc, pointer, element, base, ValueRange{offset})
          .getResult();
    };
    if (!isa<RankedTensorType>(op.getType())) {
      rewriter.replaceOp(op, advance(adaptor.getPtr(), adaptor.getOffset()));
      return success();
    }
    bool scalarOffset = !isa<RankedTensorType>(op.getOffset().getType());
    SmallVector<Value> pointers = unpackRegisters(rewriter, loc, adaptor.getPtr());
    for (auto [i, p] : llvm::enumerate(pointers))
      p = advance(p, scalarOffset ? adaptor.getOffset()
                                  : LLVM::ExtractValueOp::create(rewriter, loc,
                                                                 adaptor.getOffset(), i));
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(op.getType()), pointers));
    return success();
  }
};

/// A read-only element (kReadOnlyGather) at `address` where `keep` holds,
/// else `fallback`: one predicated `ld.global.nc`, no branch, and no side
/// effect, so LLVM may hoist it out of loops or merge equal ones.
static Value readOnlyLoad(OpBuilder &b, Location loc, Type element, Value address, Value keep,
                          Value fallback) {
  unsigned bits = element.getIntOrFloatBitWidth();
  Type bitsType = b.getIntegerType(bits);
  Value otherBits = element == bitsType ? fallback
                                        : Value(LLVM::BitcastOp::create(b, loc, bitsType, fallback));
  if (!keep)
    keep = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  std::string width = std::to_string(bits), reg = bits == 64 ? "l" : bits == 16 ? "h" : "r";
  Value loaded = LLVM::InlineAsmOp::create(
                     b, loc, bitsType, ValueRange{address, keep, otherBits},
                     b.getStringAttr("mov.b" + width + " $0, $3;\n\t@$2 ld.global.nc.b" + width +
                                     " $0, [$1];"),
                     b.getStringAttr("=" + reg + ",l,b," + reg), UnitAttr(), UnitAttr(),
                     LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr())
                     .getResult(0);
  return element == bitsType ? loaded : Value(LLVM::BitcastOp::create(b, loc, element, loaded));
}

/// One guarded load per register: where the mask is false, `other` (or 0);
/// gathers of memory the kernel never writes as read-only loads.
struct GatherLoadLowering : OpConversionPattern<tile::LoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::LoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(op.getType().getElementType());
    Value other = adaptor.getOther() ? adaptor.getOther()
                                     : paddingValue(rewriter, loc, element, tile::PaddingOption::zero);
    unsigned bits = element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 0;
    bool readOnly = op->hasAttr(kReadOnlyGather) && (bits == 16 || bits == 32 || bits == 64);
    SmallVector<Value> values;
    for (auto [i, address] : llvm::enumerate(unpackRegisters(rewriter, loc, adaptor.getPtr()))) {
      Value keep = adaptor.getMask()
                       ? LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getMask(), i).getResult()
                       : Value();
      values.push_back(readOnly ? readOnlyLoad(rewriter, loc, element, address, keep, other)
                                : guardedLoad(rewriter, loc, element, address, keep, other));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// One value for the program: a load where the mask (if any) holds.
struct ScalarLoadLowering : OpConversionPattern<tile::LoadScalarOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::LoadScalarOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type element = getTypeConverter()->convertType(op.getType());
    Value other = adaptor.getOther() ? adaptor.getOther()
                                     : paddingValue(rewriter, loc, element, tile::PaddingOption::zero);
    rewriter.replaceOp(op, guardedLoad(rewriter, loc, element, adaptor.getPtr(), adaptor.getMask(),
                                       other));
    return success();
  }
};

/// Lane 0 takes the claim (`atom.global.add`) and, when it is the last,
/// resets the counter; `shfl.sync` gives every lane lane 0's value.
struct ClaimTileLowering : OpConversionPattern<ClaimTileOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ClaimTileOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto kernel = op->getParentOfType<FunctionOpInterface>();
    auto counter = SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(
        op, rewriter.getStringAttr(tileCounterName(kernel.getName())));
    if (!counter)
      return op.emitOpError("expected the module's tile counter ")
             << tileCounterName(kernel.getName()) << " (declared by convert-tilegpu-to-nvvm)";
    Value address = LLVM::AddressOfOp::create(rewriter, loc, counter);
    Value bits = LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), address);
    StringRef text = "{\n"
                     ".reg .pred %lane0, %reset;\n"
                     ".reg .b32 %lane, %claimed;\n"
                     "mov.u32 %lane, %laneid;\n"
                     "setp.eq.u32 %lane0, %lane, 0;\n"
                     "mov.u32 %claimed, 0;\n"
                     "@%lane0 atom.global.add.u32 %claimed, [$1], 1;\n"
                     "setp.eq.and.u32 %reset, %claimed, $2, %lane0;\n"
                     "@%reset st.global.u32 [$1], 0;\n"
                     "shfl.sync.idx.b32 $0, %claimed, 0, 0x1f, 0xffffffff;\n"
                     "}";
    rewriter.replaceOp(op, sideEffectAsm(rewriter, loc, rewriter.getI32Type(),
                                         ValueRange{bits, adaptor.getLast()}, text, "=r,l,r"));
    return success();
  }
};

/// lastArrivalPTX (lib/Conversion/ArrivalPTX.h) over the group that runs
/// the op: its warp role, or the block; the wait for bulk stores where the
/// target has TMA.
struct LastArrivalLowering : OpConversionPattern<tile::LastArrivalOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::LastArrivalOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    std::optional<std::pair<int64_t, int64_t>> group = groupBarrier(op);
    if (!group)
      return op.emitOpError("expected to know how many threads run it (a warp role's, or the "
                            "kernel's nvvm.reqntid)");
    auto target = op->getParentOfType<ModuleOp>()->getAttrOfType<DictionaryAttr>("tilec.target");
    auto tma = target ? target.getAs<BoolAttr>("tma") : BoolAttr();
    Value bits =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), adaptor.getCounter());
    Value lastIndex =
        LLVM::SubOp::create(rewriter, loc, adaptor.getCount(), constI32(rewriter, loc, 1));
    Value last = sideEffectAsm(
        rewriter, loc, rewriter.getI32Type(),
        ValueRange{bits, lastIndex, threadIndex(rewriter, loc)},
        tilec::lastArrivalPTX(group->first, group->second, tma && tma.getValue()), "=r,l,r,r");
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(op, LLVM::ICmpPredicate::ne, last,
                                              constI32(rewriter, loc, 0));
    return success();
  }
};

/// One store per register, where the mask (if any) is true.
struct ScatterStoreLowering : OpConversionPattern<tile::StoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::StoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    for (auto [i, address] : llvm::enumerate(unpackRegisters(rewriter, loc, adaptor.getPtr()))) {
      Value value = LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getValue(), i);
      Value keep = adaptor.getMask()
                       ? LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getMask(), i).getResult()
                       : Value();
      guardedStore(rewriter, loc, value, address, keep);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

/// The kernel argument `value` is an address into, through address
/// arithmetic, splats, broadcasts and conversions; null when it is not one.
static Value rootArgument(Value value) {
  for (int depth = 0; depth < 64 && value; ++depth) {
    if (isa<BlockArgument>(value))
      return value;
    Operation *def = value.getDefiningOp();
    if (!def)
      return {};
    if (auto add = dyn_cast<tile::AddPtrOp>(def))
      value = add.getPtr();
    else if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, ConvertLayoutOp,
                 tile::MakeDescOp>(def))
      value = def->getOperand(0);
    else
      return {};
  }
  return {};
}

void tilec::tilegpu::planVectorBlockAccesses(ModuleOp module, bool assumeAligned) {
  module.walk([&](func::FuncOp kernel) {
    llvm::SmallSetVector<int64_t, 4> alignedArgs;
    if (auto previous = kernel->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
      alignedArgs.insert(previous.asArrayRef().begin(), previous.asArrayRef().end());
    kernel.walk([&](Operation *op) {
      Value desc, tile;
      if (auto load = dyn_cast<tile::LoadBlockOp>(op))
        desc = load.getDesc(), tile = load.getResult();
      else if (auto store = dyn_cast<tile::StoreBlockOp>(op))
        desc = store.getDesc(), tile = store.getValue();
      else
        return;
      auto type = cast<RankedTensorType>(tile.getType());
      FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
      unsigned bits = type.getElementType().getIntOrFloatBitWidth();
      if (failed(layout) || (bits != 16 && bits != 32))
        return;
      int64_t width = layout->vectorWidth(bits);
      // Every other basis must keep a group's start a multiple of the width
      // along the last dimension.
      int64_t last = layout->rank() - 1;
      auto keepsGroups = [&](const std::vector<tilec::Coords> &bases, size_t from) {
        for (size_t i = from; i < bases.size(); ++i)
          if (bases[i][last] % width)
            return false;
        return true;
      };
      if (width == 1 || !keepsGroups(layout->regs(), llvm::Log2_64(width)) ||
          !keepsGroups(layout->lanes(), 0) || !keepsGroups(layout->warps(), 0))
        return;
      op->setAttr(kVectorWidth, IntegerAttr::get(IntegerType::get(op->getContext(), 64), width));
      auto make = desc.getDefiningOp<tile::MakeDescOp>();
      auto base = make ? dyn_cast<BlockArgument>(make.getBase()) : BlockArgument();
      if (assumeAligned && base && base.getOwner()->isEntryBlock() &&
          base.getOwner()->getParentOp() == kernel) {
        op->setAttr(kAlignedAccess, UnitAttr::get(op->getContext()));
        alignedArgs.insert(base.getArgNumber());
      }
    });
    if (alignedArgs.empty())
      return;
    SmallVector<int64_t> sorted(alignedArgs.begin(), alignedArgs.end());
    llvm::sort(sorted);
    kernel->setAttr("tilec.aligned_args", DenseI64ArrayAttr::get(kernel.getContext(), sorted));
  });
}

void tilec::tilegpu::markReadOnlyGathers(ModuleOp module) {
  module.walk([](func::FuncOp kernel) {
    // Arguments something writes through (or that cannot be told apart).
    llvm::SmallPtrSet<void *, 8> written;
    bool unknownWrite = false;
    kernel.walk([&](Operation *op) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      if (!effects || !effects.hasEffect<MemoryEffects::Write>())
        return;
      for (Value operand : op->getOperands()) {
        Type type = getElementTypeOrSelf(operand.getType());
        if (!isa<tile::PointerType, tile::TensorDescType>(type))
          continue;
        if (Value root = rootArgument(operand))
          written.insert(root.getAsOpaquePointer());
        else
          unknownWrite = true;
      }
    });
    if (unknownWrite)
      return;
    kernel.walk([&](tile::LoadOp load) {
      Value root = rootArgument(load.getPtr());
      if (root && !written.contains(root.getAsOpaquePointer()))
        load->setAttr(kReadOnlyGather, UnitAttr::get(load.getContext()));
    });
  });
}

void tilec::tilegpu::populateTileGPUGlobalToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                         RewritePatternSet &patterns) {
  patterns.add<
      GridQueryLowering<tile::ProgramIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp, NVVM::BlockIdZOp>,
      GridQueryLowering<tile::NumProgramsOp, NVVM::GridDimXOp, NVVM::GridDimYOp, NVVM::GridDimZOp>,
      LoadBlockLowering, StoreBlockLowering, AtomicAddBlockLowering, AddPtrLowering,
      GatherLoadLowering, ScalarLoadLowering, ScatterStoreLowering, ClaimTileLowering,
      LastArrivalLowering>(converter, patterns.getContext());
}
