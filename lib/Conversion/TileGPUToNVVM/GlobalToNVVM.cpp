//===- GlobalToNVVM.cpp - the grid, and block loads and stores in registers ===//
//
// `tile.load_block` / `tile.store_block` on distributed tiles: each thread
// reads or writes the elements its registers hold, at the descriptor's base
// plus the coordinates times the strides, each one only where it lies
// inside the tensor's shape (elsewhere a load yields the padding value).
// Streamed loads do not come here: tilegpu-pipeline-streams makes them
// cp.async copies into shared memory.
//
//===----------------------------------------------------------------------===//

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
              ValueRange offsets, Type element)
      : b(b), loc(loc), coordinates(b, loc, layout), element(element) {
    int64_t rank = layout.rank();
    base = LLVM::ExtractValueOp::create(b, loc, desc, 0);
    for (int64_t d = 0; d < rank; ++d) {
      shape.push_back(LLVM::ExtractValueOp::create(b, loc, desc, 1 + d));
      strides.push_back(LLVM::ExtractValueOp::create(b, loc, desc, 1 + rank + d));
    }
    this->offsets.assign(offsets.begin(), offsets.end());
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
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout->numRegs(); ++r) {
      auto [address, inside] = access.at(r);
      values.push_back(guardedLoad(rewriter, loc, element, address, inside, padding));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

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
    BlockAccess access(rewriter, loc, *layout, adaptor.getDesc(), adaptor.getOffsets(), element);
    for (int64_t r = 0; r < layout->numRegs(); ++r) {
      auto [address, inside] = access.at(r);
      Value value = LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getValue(), r);
      guardedStore(rewriter, loc, value, address, inside);
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
  patterns.add<GridQueryLowering<tile::ProgramIdOp, NVVM::BlockIdXOp, NVVM::BlockIdYOp,
                                 NVVM::BlockIdZOp>,
               GridQueryLowering<tile::NumProgramsOp, NVVM::GridDimXOp, NVVM::GridDimYOp,
                                 NVVM::GridDimZOp>,
               LoadBlockLowering, StoreBlockLowering, AddPtrLowering, GatherLoadLowering,
               ScalarLoadLowering, ScatterStoreLowering>(converter, patterns.getContext());
}
