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
  patterns.add<SplatLowering, IotaLowering, CastLowering, ReshapeLowering, TransLowering>(
      converter, patterns.getContext());
}
