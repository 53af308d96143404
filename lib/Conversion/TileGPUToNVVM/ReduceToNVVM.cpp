//===- ReduceToNVVM.cpp - reductions of distributed tiles -----------------===//
//
// tile.reduce on a tile with a layout, by the same plan as tile-to-llvm's
// (`planReduction`): registers combined in a tree, then butterfly shuffles
// (nvvm.shfl.sync) over the lanes along the axis. Partial results of
// several warps meet in shared memory, which this pattern does not allocate:
// such a reduction is reported.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

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
    Type type = getTypeConverter()->convertType(result);
    Value registers = LLVM::UndefOp::create(rewriter, loc, type);
    for (auto [i, v] : llvm::enumerate(values))
      registers = LLVM::InsertValueOp::create(rewriter, loc, registers, v, int64_t(i));
    rewriter.replaceOp(op, registers);
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUReduceToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                         RewritePatternSet &patterns) {
  patterns.add<ReduceLowering>(converter, patterns.getContext());
}
