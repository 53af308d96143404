//===- LowerConversions.cpp - make every layout change executable ---------===//
//
// After this pass every layout change in a kernel is one the conversion to
// NVVM lowers: a reduction whose axis the warps split runs on a layout where
// they do not (its source and result converted); a shape op (broadcast, expand_dims, transpose) whose result
// layout its source's threads cannot produce gets its source converted
// first; conversions of cheap values are replaced by making the value
// again in the wanted layout; what
// still crosses threads goes through a scratch buffer (`local_store`, then
// `local_load`; i1 tiles as i8), allocated right before it so that
// allocation can reuse its bytes. tilegpu-insert-barriers orders the
// exchange.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPULOWERCONVERSIONS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
namespace tile = tilec::tile;

namespace {

/// `value` (a tile) in the layout of `layout`, through a conversion.
static Value convertTo(PatternRewriter &rewriter, Location loc, Value value,
                       const tilec::LinearLayout &layout) {
  auto type = cast<RankedTensorType>(value.getType());
  return rewriter.createOrFold<ConvertLayoutOp>(loc, withLayout(type, layout), value);
}

/// `value` is computed from splats, iotas and constants alone, by
/// elementwise ops, broadcasts and expand_dims (a few levels deep): making
/// it again in another layout costs a few integer ops per register.
static bool isCheap(Value value, int depth = 6) {
  Operation *producer = value.getDefiningOp();
  if (!producer || depth == 0)
    return false;
  if (isa<tile::SplatOp, tile::IotaOp, arith::ConstantOp>(producer))
    return true;
  bool shapeOnly = isa<tile::BroadcastOp, tile::ExpandDimsOp>(producer);
  bool elementwise = (isa<arith::ArithDialect>(producer->getDialect()) ||
                      isa<tile::CastOp>(producer)) &&
                     producer->getNumResults() == 1 && isPure(producer);
  return (shapeOnly || elementwise) &&
         llvm::all_of(producer->getOperands(), [&](Value v) {
           return !isa<RankedTensorType>(v.getType()) || isCheap(v, depth - 1);
         });
}

/// Makes a cheap producer of the converted tile in the wanted layout
/// (converting its operands, which canonicalizes on), so that no data has
/// to move between threads for it.
struct RematerializeCheapProducer : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    Operation *producer = op.getSrc().getDefiningOp();
    FailureOr<tilec::LinearLayout> wanted = getLinearLayout(op.getType());
    if (!producer || failed(wanted))
      return failure();
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    if (auto splat = dyn_cast<tile::SplatOp>(producer)) {
      rewriter.replaceOpWithNewOp<tile::SplatOp>(op, type, splat.getSrc());
      return success();
    }
    if (isa<tile::IotaOp>(producer)) {
      rewriter.replaceOpWithNewOp<tile::IotaOp>(op, type);
      return success();
    }
    if (auto broadcast = dyn_cast<tile::BroadcastOp>(producer)) {
      std::vector<int64_t> repeated;
      for (auto [d, size] : llvm::enumerate(broadcast.getSrc().getType().getShape()))
        if (size == 1 && type.getDimSize(d) != 1)
          repeated.push_back(d);
      Value src = convertTo(rewriter, loc, broadcast.getSrc(), wanted->collapse(repeated));
      rewriter.replaceOpWithNewOp<tile::BroadcastOp>(op, type, src);
      return success();
    }
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(producer)) {
      Value src = convertTo(rewriter, loc, expand.getSrc(), wanted->dropUnitDim(expand.getAxis()));
      rewriter.replaceOpWithNewOp<tile::ExpandDimsOp>(op, type, src, expand.getAxis());
      return success();
    }
    bool elementwise = (isa<arith::ArithDialect, math::MathDialect>(producer->getDialect()) ||
                        isa<tile::CastOp>(producer)) &&
                       producer->getNumResults() == 1 && producer->getNumRegions() == 0 &&
                       isPure(producer) && (op.getSrc().hasOneUse() || isCheap(op.getSrc())) &&
                       llvm::all_of(producer->getOperandTypes(), [&](Type t) {
                         auto tensor = dyn_cast<RankedTensorType>(t);
                         return tensor && tensor.getShape() == type.getShape();
                       });
    if (!elementwise || isa<arith::ConstantOp>(producer))
      return failure();
    SmallVector<Value> operands;
    for (Value operand : producer->getOperands())
      operands.push_back(convertTo(rewriter, loc, operand, *wanted));
    OperationState state(loc, producer->getName(), operands, TypeRange{type},
                         producer->getAttrs());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};

/// Makes `op`'s tile operand arrive in `wanted`'s placement.
static void convertOperand(Operation *op, const tilec::LinearLayout &wanted) {
  Value src = op->getOperand(0);
  auto type = cast<RankedTensorType>(src.getType());
  FailureOr<tilec::LinearLayout> current = getLinearLayout(type);
  if (failed(current) || *current == wanted)
    return;
  OpBuilder b(op);
  op->setOperand(0, ConvertLayoutOp::create(b, op->getLoc(), withLayout(type, wanted), src));
}

/// The source layout from which `op`'s result layout needs no data from
/// other threads, for the shape ops that have one.
static std::optional<tilec::LinearLayout> sourceLayoutFor(Operation *op) {
  if (!isa<tile::BroadcastOp, tile::ExpandDimsOp, tile::TransOp>(op))
    return std::nullopt;
  auto result = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  FailureOr<tilec::LinearLayout> layout =
      result ? getLinearLayout(result) : FailureOr<tilec::LinearLayout>(failure());
  if (failed(layout))
    return std::nullopt;
  if (auto broadcast = dyn_cast<tile::BroadcastOp>(op)) {
    std::vector<int64_t> repeated;
    for (auto [d, size] : llvm::enumerate(broadcast.getSrc().getType().getShape()))
      if (size == 1 && result.getDimSize(d) != 1)
        repeated.push_back(static_cast<int64_t>(d));
    return layout->collapse(repeated);
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op))
    return layout->dropUnitDim(expand.getAxis());
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    std::vector<int64_t> inverse(trans.getOrder().size());
    for (auto [i, d] : llvm::enumerate(trans.getOrder()))
      inverse[d] = static_cast<int64_t>(i);
    return layout->transpose(inverse);
  }
  return std::nullopt;
}

/// A reduction whose axis the warps split (partial results of several warps
/// would have to meet) runs on the source converted to a blocked layout
/// with the warps along the other dimensions; its result is converted back
/// to the layout the IR gave it.
static void keepReductionInWarps(tile::ReduceOp op) {
  auto srcType = cast<RankedTensorType>(op.getSrc().getType());
  FailureOr<tilec::LinearLayout> layout = getLinearLayout(srcType);
  if (failed(layout))
    return;
  int64_t axis = op.getAxis();
  std::optional<tilec::ReductionPlan> plan = tilec::planReduction(*layout, axis);
  if (plan && plan->warpBits.empty())
    return;
  std::vector<int64_t> shape(srcType.getShape().begin(), srcType.getShape().end());
  // Warps go along dimension 0 first: any other axis may stay in the warps
  // (the row sums kept per thread, row_sums=end, reduce [rows, w / 8, 4]
  // over its middle dimension), which the plan below says.
  if (axis == 0 || srcType.getRank() < 2)
    return;
  tilec::LinearLayout blocked =
      tilec::LinearLayout::defaultBlocked(shape, layout->numWarps(), /*vector=*/1);
  plan = tilec::planReduction(blocked, axis);
  if (!plan || !plan->warpBits.empty())
    return;
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value src = ConvertLayoutOp::create(b, loc, withLayout(srcType, blocked), op.getSrc());
  auto resultType = cast<RankedTensorType>(op.getType());
  auto reduced = tile::ReduceOp::create(
      b, loc, withLayout(resultType, blocked.slice(axis)), op.getKindAttr(), src,
      b.getI32IntegerAttr(static_cast<int32_t>(axis)));
  Value back = ConvertLayoutOp::create(b, loc, resultType, reduced.getResult());
  op.replaceAllUsesWith(back);
  op.erase();
}

/// A conversion of a tile just read from shared memory reads it again in
/// the wanted layout, at the same point (so it still comes before whatever
/// frees the buffer, e.g. a ring slot's release): no exchange through a
/// scratch buffer, no barrier. The first read goes once it has no users.
struct LoadInWantedLayout : OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, PatternRewriter &rewriter) const override {
    auto load = op.getSrc().getDefiningOp<LocalLoadOp>();
    if (!load)
      return failure();
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointAfter(load);
    Value again = LocalLoadOp::create(rewriter, op.getLoc(), op.getType(), load.getSrc());
    rewriter.replaceOp(op, again);
    if (load->use_empty())
      rewriter.eraseOp(load);
    return success();
  }
};

/// A conversion that moves data between threads, through shared memory.
static LogicalResult exchangeThroughShared(ConvertLayoutOp op) {
  FailureOr<tilec::LinearLayout> from = getLinearLayout(op.getSrc().getType());
  FailureOr<tilec::LinearLayout> to = getLinearLayout(op.getType());
  if (tilec::registerLocalMove(*from, *to, [](const tilec::Coords &c) { return c; }))
    return success();
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value value = op.getSrc();
  RankedTensorType srcType = op.getSrc().getType(), resultType = op.getType();
  // A column ([64, 1]: one value per row, e.g. a per-row bias before its
  // broadcast) is exchanged as the 1-D tensor it holds: its own rows are
  // narrower than the shared-memory rows need.
  if (srcType.getRank() >= 2 && srcType.getShape().back() == 1) {
    const int64_t last = srcType.getRank() - 1;
    auto dropLast = [&](RankedTensorType type, const tilec::LinearLayout &layout) {
      return withLayout(RankedTensorType::get(type.getShape().drop_back(), type.getElementType()),
                        layout.dropUnitDim(last));
    };
    Value flat = tile::ReshapeOp::create(b, loc, dropLast(srcType, *from), value);
    auto inner = ConvertLayoutOp::create(b, loc, dropLast(resultType, *to), flat);
    Value back = tile::ReshapeOp::create(b, loc, resultType, inner.getResult());
    op.replaceAllUsesWith(back);
    op.erase();
    return exchangeThroughShared(inner);
  }
  Type element = srcType.getElementType();
  bool isBool = element.isInteger(1);
  Type stored = isBool ? b.getI8Type() : element;
  if (isBool)
    value = arith::ExtUIOp::create(
        b, loc, RankedTensorType::get(srcType.getShape(), stored, srcType.getEncoding()), value);
  int64_t rowBytes = srcType.getShape().back() * ((stored.getIntOrFloatBitWidth() + 7) / 8);
  if (rowBytes % 16)
    return op.emitOpError("moves data between threads through shared memory, which needs rows "
                          "of a multiple of 16 bytes; got ")
           << rowBytes;
  auto bufferType = SharedMemoryType::get(b.getContext(), srcType.getShape(), stored,
                                          PaddedAttr::get(b.getContext(), 0));
  Value scratch = AllocOp::create(b, loc, bufferType, IntegerAttr());
  LocalStoreOp::create(b, loc, value, scratch);
  Value loaded = LocalLoadOp::create(
      b, loc, RankedTensorType::get(resultType.getShape(), stored, resultType.getEncoding()),
      scratch);
  if (isBool)
    loaded = arith::TruncIOp::create(b, loc, resultType, loaded);
  op.replaceAllUsesWith(loaded);
  op.erase();
  return success();
}

struct TileGPULowerConversions
    : public tilec::tilegpu::impl::TileGPULowerConversionsBase<TileGPULowerConversions> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<tile::ReduceOp> reductions;
    module.walk([&](tile::ReduceOp op) { reductions.push_back(op); });
    for (tile::ReduceOp op : reductions)
      keepReductionInWarps(op);
    module.walk([](Operation *op) {
      if (std::optional<tilec::LinearLayout> wanted = sourceLayoutFor(op))
        convertOperand(op, *wanted);
    });
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeCheapProducer, LoadInWantedLayout>(&getContext());
    if (failed(applyPatternsGreedily(module, std::move(patterns))))
      return signalPassFailure();
    SmallVector<ConvertLayoutOp> conversions;
    module.walk([&](ConvertLayoutOp op) { conversions.push_back(op); });
    for (ConvertLayoutOp op : conversions)
      if (failed(exchangeThroughShared(op)))
        return signalPassFailure();
  }
};

} // namespace
