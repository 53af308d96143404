//===- ShapeToNVVM.cpp - tiles made, reshaped and converted in registers ---===//
//
// `tile.splat` and `tile.iota` fill each register from the scalar or from
// its own coordinate; `tile.cast` converts each register; `tile.reshape`
// and `tile.trans` only rename coordinates, so they lower to picking
// registers when the result's layout keeps every element in its thread
// (what layout assignment and tilegpu-lower-dots arrange).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;
namespace tile = tilec::tile;

namespace {

/// The scalar in every register.
struct SplatLowering : OpConversionPattern<tile::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::SplatOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getType());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    SmallVector<Value> values(layout->numRegs(), adaptor.getSrc());
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// Each register's coordinate (the tile is 1-D).
struct IotaLowering : OpConversionPattern<tile::IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::IotaOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getType());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    TileCoordinates coordinates(rewriter, op.getLoc(), *layout);
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout->numRegs(); ++r)
      values.push_back(coordinates.of(r).front());
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// A tile of positions along dimension `dim`: `start` plus each element's
/// coordinate there (`start` null: 0).
struct PositionTile {
  int64_t dim;
  Value start;
};

/// `value` as positions along one dimension of its `rank`-dimensional
/// tile: `iota` or `splat(s) + iota` (either order), expanded and broadcast
/// over the other dimension; else nothing.
static std::optional<PositionTile> positionsOf(Value value, int64_t rank) {
  int64_t dim = 0;
  if (auto broadcast = value.getDefiningOp<tile::BroadcastOp>())
    value = broadcast.getSrc();
  if (auto expand = value.getDefiningOp<tile::ExpandDimsOp>()) {
    if (rank != 2)
      return std::nullopt;
    dim = expand.getAxis() == 0 ? 1 : 0;
    value = expand.getSrc();
  } else if (rank != 1) {
    return std::nullopt;
  }
  if (value.getDefiningOp<tile::IotaOp>())
    return PositionTile{dim, Value()};
  auto add = value.getDefiningOp<arith::AddIOp>();
  if (!add)
    return std::nullopt;
  for (auto [iota, splat] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}})
    if (iota.getDefiningOp<tile::IotaOp>())
      if (auto start = splat.getDefiningOp<tile::SplatOp>())
        return PositionTile{dim, start.getSrc()};
  return std::nullopt;
}

/// Whether `value` is the same along dimension `dim` of its tile: a splat,
/// or a broadcast from size 1 along `dim`.
static bool sameAlong(Value value, int64_t dim) {
  if (value.getDefiningOp<tile::SplatOp>())
    return true;
  auto broadcast = value.getDefiningOp<tile::BroadcastOp>();
  return broadcast && cast<RankedTensorType>(broadcast.getSrc().getType()).getDimSize(dim) == 1;
}

/// `positions < x` (or <=, >, >=, ==, != on i32, signed) where `x` is the same
/// along the positions' dimension — a mask's bound per row (`key <= query`,
/// `key < seq_k`): each register's position is this thread's part plus a
/// constant of the register, so the bound less the thread's part is
/// compared with that constant. A thread's positions then take no
/// registers: as values they were one a register, and loop-invariant ones
/// (the dK/dV kernel's keys, a masked step's columns) stayed live across
/// the loop (the fused d = 64 backward's 32 key columns spilled beside the
/// scores). The difference is taken in 64 bits and clamped to the
/// registers' constants ± 1 (positions are indices: their i32 sum does not
/// wrap). Layouts whose thread and register parts of the position share
/// bits (their XOR is not a sum) keep the elementwise lowering.
struct PositionCompareLowering : OpConversionPattern<arith::CmpIOp> {
  PositionCompareLowering(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(arith::CmpIOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(op.getType());
    auto operandType = dyn_cast<RankedTensorType>(op.getLhs().getType());
    if (!type || !operandType || !operandType.getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not a compare of i32 tiles");
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
    if (failed(layout) || operandType.getEncoding() != type.getEncoding())
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    const int64_t rank = type.getRank();
    arith::CmpIPredicate predicate = op.getPredicate();
    std::optional<PositionTile> positions = positionsOf(op.getLhs(), rank);
    Value other = adaptor.getRhs(), otherTile = op.getRhs();
    if (!positions) {
      positions = positionsOf(op.getRhs(), rank);
      other = adaptor.getLhs();
      otherTile = op.getLhs();
      predicate = swapped(predicate);
    }
    if (!positions || !sameAlong(otherTile, positions->dim) || !isSigned(predicate))
      return rewriter.notifyMatchFailure(op, "not positions against a bound");
    // Only where a thread holds many positions (8 or more: a row's 32 keys
    // in a wgmma accumulator, not a column's 2) that the loop does not
    // change (their start made outside it): those made from the step are
    // made each step anyway.
    const int64_t dim = positions->dim;
    int64_t ownPositions = 1, regBits = 0;
    for (const tilec::Coords &basis : layout->regs()) {
      regBits |= basis[dim];
      if (basis[dim])
        ownPositions *= 2;
    }
    if (ownPositions < 8)
      return rewriter.notifyMatchFailure(op, "few positions a thread");
    Operation *loop = op->getParentOfType<scf::ForOp>();
    Value start = positions->start ? rewriter.getRemappedValue(positions->start) : Value();
    Region *startRegion = start ? start.getParentRegion() : nullptr;
    if (!loop || (start && (!startRegion || loop->isAncestor(startRegion->getParentOp()))))
      return rewriter.notifyMatchFailure(op, "positions not loop-invariant");
    // The thread's and the registers' bits of the position must not meet;
    // then a register's own part is at most all of its bits.
    int64_t threadBits = 0;
    for (const auto *bases : {&layout->lanes(), &layout->warps()})
      for (const tilec::Coords &basis : *bases)
        threadBits |= basis[dim];
    if (threadBits & regBits)
      return rewriter.notifyMatchFailure(op, "thread and register bits of the position meet");

    Location loc = op.getLoc();
    TileCoordinates coordinates(rewriter, loc, *layout);
    Value base = coordinates.of(0)[dim]; // the thread's part: register 0's own is 0
    if (start)
      base = LLVM::AddOp::create(rewriter, loc, start, base);
    Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
    Value base64 = LLVM::SExtOp::create(rewriter, loc, i64, base);
    Value low = LLVM::ConstantOp::create(rewriter, loc, i64, int64_t{-1});
    Value high = LLVM::ConstantOp::create(rewriter, loc, i64, regBits + 1);
    Type resultType = getTypeConverter()->convertType(type);
    Value result = LLVM::UndefOp::create(rewriter, loc, resultType);
    for (int64_t r = 0; r < layout->numRegs(); ++r) {
      Value bound = LLVM::ExtractValueOp::create(rewriter, loc, other, r);
      Value difference = LLVM::SubOp::create(
          rewriter, loc, LLVM::SExtOp::create(rewriter, loc, i64, bound), base64);
      Value clamped = LLVM::SMinOp::create(
          rewriter, loc, LLVM::SMaxOp::create(rewriter, loc, difference, low), high);
      Value narrow = LLVM::TruncOp::create(rewriter, loc, i32, clamped);
      Value own = LLVM::ConstantOp::create(rewriter, loc, i32, layout->regPart(r)[dim]);
      Value value = LLVM::ICmpOp::create(rewriter, loc, toLLVM(predicate), own, narrow);
      result = LLVM::InsertValueOp::create(rewriter, loc, result, value, r);
    }
    rewriter.replaceOp(op, result);
    return success();
  }

private:
  static bool isSigned(arith::CmpIPredicate p) {
    using P = arith::CmpIPredicate;
    return p == P::slt || p == P::sle || p == P::sgt || p == P::sge || p == P::eq || p == P::ne;
  }
  /// `b p a` for `a p b`.
  static arith::CmpIPredicate swapped(arith::CmpIPredicate p) {
    using P = arith::CmpIPredicate;
    switch (p) {
    case P::slt:
      return P::sgt;
    case P::sle:
      return P::sge;
    case P::sgt:
      return P::slt;
    case P::sge:
      return P::sle;
    default:
      return p;
    }
  }
  static LLVM::ICmpPredicate toLLVM(arith::CmpIPredicate p) {
    using P = arith::CmpIPredicate;
    using L = LLVM::ICmpPredicate;
    switch (p) {
    case P::slt:
      return L::slt;
    case P::sle:
      return L::sle;
    case P::sgt:
      return L::sgt;
    case P::sge:
      return L::sge;
    case P::ne:
      return L::ne;
    default:
      return L::eq;
    }
  }
};

/// The conversion tile.cast defines, on one scalar.
static FailureOr<Value> castScalar(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  auto fromInt = dyn_cast<IntegerType>(from), toInt = dyn_cast<IntegerType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() > toFloat.getWidth()
               ? Value(LLVM::FPTruncOp::create(b, loc, to, value))
               : Value(LLVM::FPExtOp::create(b, loc, to, value));
  // i1 is a truth value: true converts to 1 (not to the -1 of a signed bit).
  bool truth = fromInt && fromInt.getWidth() == 1;
  if (fromInt && toFloat)
    return truth ? Value(LLVM::UIToFPOp::create(b, loc, to, value))
                 : Value(LLVM::SIToFPOp::create(b, loc, to, value));
  if (fromFloat && toInt)
    return Value(LLVM::FPToSIOp::create(b, loc, to, value));
  if (fromInt && toInt)
    return fromInt.getWidth() > toInt.getWidth() ? Value(LLVM::TruncOp::create(b, loc, to, value))
           : truth ? Value(LLVM::ZExtOp::create(b, loc, to, value))
                   : Value(LLVM::SExtOp::create(b, loc, to, value));
  return failure();
}

/// Each register converted, in the same layout (or the scalar).
struct CastLowering : OpConversionPattern<tile::CastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::CastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<RankedTensorType>(op.getType())) {
      FailureOr<Value> cast = castScalar(rewriter, op.getLoc(), adaptor.getSrc(),
                                         getTypeConverter()->convertType(op.getType()));
      if (failed(cast))
        return op.emitOpError("has no conversion from ")
               << op.getSrc().getType() << " to " << op.getType();
      rewriter.replaceOp(op, *cast);
      return success();
    }
    auto srcType = dyn_cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    FailureOr<tilec::LinearLayout> to =
        resultType ? getLinearLayout(resultType) : FailureOr<tilec::LinearLayout>(failure());
    if (!srcType || failed(to))
      return rewriter.notifyMatchFailure(op, "not on distributed tiles");
    FailureOr<tilec::LinearLayout> from = getLinearLayout(srcType);
    if (failed(from) || *from != *to)
      return op.emitOpError("expected the source and the result in one layout");
    Type element = getTypeConverter()->convertType(resultType.getElementType());
    SmallVector<Value> values;
    for (Value value : unpackRegisters(rewriter, op.getLoc(), adaptor.getSrc())) {
      FailureOr<Value> cast = castScalar(rewriter, op.getLoc(), value, element);
      if (failed(cast))
        return op.emitOpError("has no conversion from ")
               << srcType.getElementType() << " to " << resultType.getElementType();
      values.push_back(*cast);
    }
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(resultType), values));
    return success();
  }
};

/// A result whose coordinates map to the source's through `map`: the
/// registers that already hold each element, or an error.
template <typename Op, typename Map>
LogicalResult pickWithinThreads(Op op, Value source, const TypeConverter &converter,
                                ConversionPatternRewriter &rewriter, Map map, StringRef what) {
  FailureOr<tilec::LinearLayout> from =
      getLinearLayout(cast<RankedTensorType>(op->getOperand(0).getType()));
  FailureOr<tilec::LinearLayout> to = getLinearLayout(cast<RankedTensorType>(op.getType()));
  if (failed(from) || failed(to))
    return rewriter.notifyMatchFailure(op, "not on distributed tiles");
  std::optional<std::vector<int64_t>> sources = tilec::registerLocalMove(*from, *to, map);
  if (!sources)
    return op.emitOpError("expected a result layout that keeps every element in its thread (")
           << what << " within threads; insert tilegpu.convert_layout after it)";
  rewriter.replaceOp(op, pickRegisters(rewriter, op.getLoc(), converter.convertType(op.getType()),
                                       source, *sources));
  return success();
}

/// Row-major element order is kept: result coordinates map to the
/// source's through the linear index.
struct ReshapeLowering : OpConversionPattern<tile::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::ReshapeOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    ArrayRef<int64_t> from = cast<RankedTensorType>(op.getSrc().getType()).getShape();
    ArrayRef<int64_t> to = op.getType().getShape();
    auto map = [&](const tilec::Coords &c) {
      int64_t index = 0;
      for (size_t d = 0; d < to.size(); ++d)
        index = index * to[d] + c[d];
      tilec::Coords source(from.size());
      for (size_t d = from.size(); d-- > 0;) {
        source[d] = index % from[d];
        index /= from[d];
      }
      return source;
    };
    return pickWithinThreads(op, adaptor.getSrc(), *getTypeConverter(), rewriter, map,
                             "a reshape");
  }
};

/// Result dimension i is source dimension order[i].
struct TransLowering : OpConversionPattern<tile::TransOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::TransOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<int64_t> order(op.getOrder());
    auto map = [&](const tilec::Coords &c) {
      tilec::Coords source(c.size());
      for (size_t i = 0; i < c.size(); ++i)
        source[order[i]] = c[i];
      return source;
    };
    return pickWithinThreads(op, adaptor.getSrc(), *getTypeConverter(), rewriter, map,
                             "a transpose");
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUShapeToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                        RewritePatternSet &patterns) {
  patterns.add<SplatLowering, IotaLowering, CastLowering, ReshapeLowering, TransLowering,
               PositionCompareLowering>(converter, patterns.getContext());
}
