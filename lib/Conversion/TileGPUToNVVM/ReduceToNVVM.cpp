//===- ReduceToNVVM.cpp - reductions and broadcasts of distributed tiles --===//
//
// tile.reduce on a tile with a layout, by the same plan as tile-to-llvm's
// (`planReduction`): registers combined in a tree, then butterfly shuffles
// (nvvm.shfl.sync) over the lanes along the axis. Partial results of
// several warps meet in shared memory, which this pattern does not allocate:
// such a reduction is reported. The way back, tile.expand_dims and
// tile.broadcast (a row statistic onto the rows), by register picks when
// every thread already holds what it needs. tile.scale_rows (the online
// softmax's rescale) the same way, skipped by a warp whose factors are all 1.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;
namespace tile = tilec::tile;

namespace {

struct ReduceLowering : OpConversionPattern<tile::ReduceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::ReduceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getSrc().getType());
    if (failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    int64_t axis = op.getAxis();
    std::string whyNot;
    std::optional<tilec::ReductionPlan> plan = tilec::planReduction(*layout, axis, &whyNot);
    if (!plan)
      return op.emitOpError("cannot reduce this layout (") << whyNot << ")";
    if (!plan->warpBits.empty())
      return op.emitOpError("expected a reduction within each warp (partial results of "
                            "several warps meet in shared memory: not lowered yet)");
    Type element = op.getSrc().getType().getElementType();
    if (!plan->laneBits.empty() && element.getIntOrFloatBitWidth() != 32)
      return op.emitOpError("expected 32-bit elements to shuffle, got ") << element;
    auto result = dyn_cast<RankedTensorType>(op.getType());
    if (result) {
      FailureOr<tilec::LinearLayout> placed = getLinearLayout(result);
      if (failed(placed) || *placed != layout->slice(axis))
        return op.emitOpError("expected the result in the slice of the source's layout");
    }

    Location loc = op.getLoc();
    auto combine = [&](Value a, Value b) {
      return tile::buildCombine(rewriter, loc, op.getKind(), a, b);
    };
    Value source = adaptor.getSrc();
    SmallVector<Value> values;
    for (const std::vector<int64_t> &group : plan->registerGroups) {
      SmallVector<Value> partial;
      for (int64_t reg : group)
        partial.push_back(LLVM::ExtractValueOp::create(rewriter, loc, source, reg));
      while (partial.size() > 1) {
        for (size_t i = 0; i < partial.size() / 2; ++i)
          partial[i] = combine(partial[2 * i], partial[2 * i + 1]);
        partial.resize(partial.size() / 2);
      }
      values.push_back(partial.front());
    }
    for (int64_t bit : plan->laneBits)
      for (Value &v : values) {
        Value other = NVVM::ShflOp::create(rewriter, loc, element, constI32(rewriter, loc, -1), v,
                                           constI32(rewriter, loc, int64_t{1} << bit),
                                           constI32(rewriter, loc, 31), NVVM::ShflKind::bfly,
                                           UnitAttr());
        v = combine(v, other);
      }
    if (!result) {
      rewriter.replaceOp(op, values.front());
      return success();
    }
    rewriter.replaceOp(op,
                       packRegisters(rewriter, loc, getTypeConverter()->convertType(result), values));
    return success();
  }
};

/// The same registers: a unit dimension changes no placement.
struct ExpandDimsLowering : OpConversionPattern<tile::ExpandDimsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::ExpandDimsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> from = getLinearLayout(op.getSrc().getType());
    if (failed(from))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    FailureOr<tilec::LinearLayout> to = getLinearLayout(op.getType());
    if (failed(to) || *to != from->expandDims(op.getAxis()))
      return op.emitOpError("expected the result in the source's layout with the unit "
                            "dimension inserted");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// Each register of the result is one of the source's (the dimensions of
/// size 1 repeat), when every thread holds what it needs.
struct BroadcastLowering : OpConversionPattern<tile::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::BroadcastOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> from = getLinearLayout(op.getSrc().getType());
    if (failed(from))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    FailureOr<tilec::LinearLayout> to = getLinearLayout(op.getType());
    if (failed(to))
      return op.emitOpError("expected a result with a distributed layout");
    ArrayRef<int64_t> srcShape = op.getSrc().getType().getShape();
    auto repeat = [&](const tilec::Coords &c) {
      tilec::Coords source = c;
      for (size_t d = 0; d < source.size(); ++d)
        if (srcShape[d] == 1)
          source[d] = 0;
      return source;
    };
    std::optional<std::vector<int64_t>> sources = tilec::registerLocalMove(*from, *to, repeat);
    if (!sources)
      return op.emitOpError("expected a broadcast within threads (the result's layout must "
                            "hold, in each thread, values the source's thread holds)");
    rewriter.replaceOp(op, pickRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(op.getType()),
                                         adaptor.getSrc(), *sources));
    return success();
  }
};

/// Each register of x times its row's factor (a register of the same
/// thread: the factors are in the slice of x's layout), under a branch
/// that a warp whose factors are all exactly 1 skips: each thread asks
/// whether one of its factors is not 1, and one vote.sync answers for the
/// warp, so the branch is uniform within it. With the online softmax's
/// rescale threshold most steps of the key loop skip the multiplies (at
/// d = 128, 64 a thread).
struct ScaleRowsLowering : OpConversionPattern<tile::ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::ScaleRowsOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    FailureOr<tilec::LinearLayout> rows = getLinearLayout(op.getFactor().getType());
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getType());
    if (failed(rows) || failed(layout))
      return rewriter.notifyMatchFailure(op, "not a distributed tile");
    std::optional<std::vector<int64_t>> factorOf =
        tilec::registerLocalMove(rows->expandDims(1), *layout, [](tilec::Coords c) {
          c[1] = 0;
          return c;
        });
    if (!factorOf)
      return op.emitOpError("expected the factors in the slice of the scaled tile's layout");
    Location loc = op.getLoc();
    Type type = getTypeConverter()->convertType(op.getType());
    SmallVector<Value> factors = unpackRegisters(rewriter, loc, adaptor.getFactor());
    Value one = LLVM::ConstantOp::create(rewriter, loc, rewriter.getF32Type(),
                                         rewriter.getF32FloatAttr(1.0f));
    Value notOne;
    for (Value factor : factors) {
      Value differs = LLVM::FCmpOp::create(rewriter, loc, LLVM::FCmpPredicate::une, factor, one);
      notOne = notOne ? LLVM::OrOp::create(rewriter, loc, notOne, differs) : differs;
    }
    Value warpNeeds =
        NVVM::VoteSyncOp::create(rewriter, loc, rewriter.getI1Type(), constI32(rewriter, loc, -1),
                                 notOne, NVVM::VoteSyncKind::any);
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{type}, warpNeeds, /*withElse=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(branch.thenBlock());
      SmallVector<Value> values = unpackRegisters(rewriter, loc, adaptor.getX());
      for (auto [i, value] : llvm::enumerate(values))
        value = LLVM::FMulOp::create(rewriter, loc, value, factors[(*factorOf)[i]]);
      scf::YieldOp::create(rewriter, loc, packRegisters(rewriter, loc, type, values));
      rewriter.setInsertionPointToStart(branch.elseBlock());
      scf::YieldOp::create(rewriter, loc, adaptor.getX());
    }
    rewriter.replaceOp(op, branch.getResult(0));
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUReduceToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                         RewritePatternSet &patterns) {
  patterns.add<ReduceLowering, ExpandDimsLowering, BroadcastLowering, ScaleRowsLowering>(
      converter, patterns.getContext());
}
