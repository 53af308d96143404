//===- DecomposeOnlineSoftmax.cpp - online softmax as tile math -----------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

#include <limits>

namespace tilec {
#define GEN_PASS_DEF_TILEDECOMPOSEONLINESOFTMAX
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::tile;

namespace {

Value splatConstant(OpBuilder &b, Location loc, RankedTensorType type, double value) {
  return arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getFloatAttr(type.getElementType(), value)));
}

/// Whether every row of the scores surely has a finite maximum: every part
/// is a dot's (of finite operands; no mask or modifier put -inf in them).
/// Then m_new = max(m, that maximum) is finite too, whatever m was.
static bool finiteRowMaxima(ValueRange scores) {
  return llvm::all_of(scores, [](Value s) { return s.getDefiningOp<DotOp>() != nullptr; });
}

/// Scores in parts folded to the narrowest part's columns for their row
/// maximum: each wider part [M, w] as [M, w / n, n] reduced over its middle
/// dimension (within each thread where a thread holds columns n apart, as
/// in the MMA layouts), then the parts' maximum element by element; one
/// row reduction (and its exchange between threads) follows instead of one
/// a part. One part: itself. Null where some part's width is not a multiple
/// of the narrowest's (the verifier allows any widths): each part is then
/// reduced on its own.
static Value foldedParts(OpBuilder &b, Location loc, ValueRange scores) {
  if (scores.size() == 1)
    return scores.front();
  int64_t narrow = std::numeric_limits<int64_t>::max();
  for (Value s : scores)
    narrow = std::min(narrow, cast<RankedTensorType>(s.getType()).getShape()[1]);
  if (llvm::any_of(scores, [&](Value s) {
        return cast<RankedTensorType>(s.getType()).getShape()[1] % narrow != 0;
      }))
    return Value();
  Value folded;
  for (Value s : scores) {
    auto type = cast<RankedTensorType>(s.getType());
    int64_t rows = type.getShape()[0], columns = type.getShape()[1];
    Value part = s;
    if (columns != narrow) {
      Value split = ReshapeOp::create(b, loc, s, ArrayRef<int64_t>{rows, columns / narrow, narrow});
      part = ReduceOp::create(b, loc, ReduceKind::max, split, 1);
    }
    folded = folded ? arith::MaximumFOp::create(b, loc, folded, part) : part;
  }
  return folded;
}

/// Rewrites one step (with `rescale_threshold`, m_new keeps m unless the
/// block's maximum exceeds it by more than the threshold). `mSafe` is m_new
/// with -inf replaced by 0, so that a row
/// that has seen only masked scores computes exp2(-inf - 0) = 0 for p
/// without a select, and alpha takes the value 1 there explicitly. Where
/// the scores are a dot's (an unmasked step) m_new is finite and needs
/// neither (FlashAttention-3's Check_inf = false).
///
/// The scale t is positive (the verifier says so) and rounding is
/// monotonic, so max_j fl(s·t) = fl(max_j s · t): the row maximum is taken
/// over the raw scores and scaled once per row, and s·t - m_new is one fused
/// multiply-add per score (`contract`), as hand-written kernels do it. Scores
/// in parts: the row maximum over the parts folded together (foldedParts),
/// and each part gets its own p.
void decompose(OnlineSoftmaxOp op) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  RankedTensorType mType = op.getM().getType();
  const double inf = std::numeric_limits<double>::infinity();
  const double scale = op.getLog2Scale();
  auto contract = arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::contract);

  // s·t comes before the row maximum in the IR: layout assignment then
  // gives m_new's broadcast the scores' layout.
  SmallVector<Value> scaled;
  for (Value s : op.getScores())
    scaled.push_back(arith::MulFOp::create(
        b, loc, s, splatConstant(b, loc, cast<RankedTensorType>(s.getType()), scale), contract));
  Value rawMax;
  if (Value folded = foldedParts(b, loc, op.getScores())) {
    rawMax = ReduceOp::create(b, loc, ReduceKind::max, folded, 1);
  } else {
    for (Value s : op.getScores()) {
      Value partMax = ReduceOp::create(b, loc, ReduceKind::max, s, 1);
      rawMax = rawMax ? arith::MaximumFOp::create(b, loc, rawMax, partMax) : partMax;
    }
  }
  Value rowMax = arith::MulFOp::create(b, loc, rawMax, splatConstant(b, loc, mType, scale));
  Value mNew = arith::MaximumFOp::create(b, loc, op.getM(), rowMax);
  if (std::optional<APFloat> threshold = op.getRescaleThreshold();
      threshold && !threshold->isZero()) {
    // The old maximum stays unless the block's exceeds it by more than τ
    // (m = -inf: -inf + τ is -inf, so any finite maximum replaces it).
    Value bound = arith::AddFOp::create(
        b, loc, op.getM(), splatConstant(b, loc, mType, threshold->convertToDouble()));
    Value grows = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, rowMax, bound);
    mNew = arith::SelectOp::create(b, loc, grows, mNew, op.getM());
  }
  const bool finite = finiteRowMaxima(op.getScores());
  Value empty;
  Value mSafe = mNew;
  if (!finite) {
    empty = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, mNew,
                                  splatConstant(b, loc, mType, -inf));
    mSafe = arith::SelectOp::create(b, loc, empty, splatConstant(b, loc, mType, 0.0), mNew);
  }
  Value mColumn = ExpandDimsOp::create(b, loc, mSafe, 1);
  for (auto [s, sScaled, p] : llvm::zip(op.getScores(), scaled, op.getP())) {
    Value mWide = BroadcastOp::create(b, loc, s.getType(), mColumn);
    auto pOp =
        math::Exp2Op::create(b, loc, arith::SubFOp::create(b, loc, sScaled, mWide, contract));
    pOp->setAttr(tilec::kSoftmaxExp2AttrName, b.getUnitAttr());
    p.replaceAllUsesWith(pOp.getResult());
  }
  Value alpha = math::Exp2Op::create(b, loc, arith::SubFOp::create(b, loc, op.getM(), mSafe));
  if (!finite)
    alpha = arith::SelectOp::create(b, loc, empty, splatConstant(b, loc, mType, 1.0), alpha);
  op.getMNew().replaceAllUsesWith(mNew);
  op.getAlpha().replaceAllUsesWith(alpha);
  op.erase();
}

struct DecomposeOnlineSoftmax
    : tilec::impl::TileDecomposeOnlineSoftmaxBase<DecomposeOnlineSoftmax> {
  void runOnOperation() override {
    SmallVector<OnlineSoftmaxOp> ops;
    getOperation()->walk([&](OnlineSoftmaxOp op) { ops.push_back(op); });
    for (OnlineSoftmaxOp op : ops)
      decompose(op);
  }
};

} // namespace
