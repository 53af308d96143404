//===- MergeUpperBounds.cpp - two upper bounds on an index as one ---------===//
//
// See the pass description in dialects/Tile/Passes.td. In the attention
// kernels' masked steps (the causal diagonal block, the window's edges) the
// keys' bound and the causal bound cost two compares, an and and (after
// LLVM) two selects a score; merged, one compare and one select.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace tilec {
#define GEN_PASS_DEF_TILEMERGEUPPERBOUNDS
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::tile;

namespace {

/// `broadcast(expand_dims(v, axis))`: `v`, a 1-D tile, spread over a 2-D one.
struct Spread {
  Value vector;
  int32_t axis;
};

std::optional<Spread> spreadOf(Value v) {
  auto broadcast = v.getDefiningOp<BroadcastOp>();
  if (!broadcast)
    return std::nullopt;
  auto expand = broadcast.getSrc().getDefiningOp<ExpandDimsOp>();
  if (!expand || cast<RankedTensorType>(expand.getSrc().getType()).getRank() != 1)
    return std::nullopt;
  return Spread{expand.getSrc(), static_cast<int32_t>(expand.getAxis())};
}

/// A bound the whole tile shares on index `c`: `spread(c < splat(x))`.
struct SharedBound {
  Value index; // c, 1-D
  int32_t axis;
  Value limit; // x, a scalar
};

std::optional<SharedBound> sharedBoundOf(Value leaf) {
  std::optional<Spread> spread = spreadOf(leaf);
  if (!spread)
    return std::nullopt;
  auto cmp = spread->vector.getDefiningOp<arith::CmpIOp>();
  if (!cmp || cmp.getPredicate() != arith::CmpIPredicate::slt)
    return std::nullopt;
  auto splat = cmp.getRhs().getDefiningOp<SplatOp>();
  if (!splat)
    return std::nullopt;
  return SharedBound{cmp.getLhs(), spread->axis, splat.getSrc()};
}

/// A bound of the other index on `c`: `spread(c) < broadcast(y)` or `<=`,
/// `y` of size 1 along the axis `c` runs along.
struct OtherBound {
  arith::CmpIOp cmp;
  Value index;  // c, 1-D
  Value spread; // c spread over the tile (the compare's operand)
  int32_t axis;
  Value limit; // y, 2-D
  bool inclusive;
};

std::optional<OtherBound> otherBoundOf(Value leaf) {
  auto cmp = leaf.getDefiningOp<arith::CmpIOp>();
  if (!cmp)
    return std::nullopt;
  // c on the left: c < y, c <= y; on the right: y > c, y >= c.
  Value index = cmp.getLhs(), limit = cmp.getRhs();
  bool inclusive;
  switch (cmp.getPredicate()) {
  case arith::CmpIPredicate::slt:
  case arith::CmpIPredicate::sle:
    inclusive = cmp.getPredicate() == arith::CmpIPredicate::sle;
    break;
  case arith::CmpIPredicate::sgt:
  case arith::CmpIPredicate::sge:
    std::swap(index, limit);
    inclusive = cmp.getPredicate() == arith::CmpIPredicate::sge;
    break;
  default:
    return std::nullopt;
  }
  std::optional<Spread> spread = spreadOf(index);
  auto broadcast = limit.getDefiningOp<BroadcastOp>();
  if (!spread || !broadcast)
    return std::nullopt;
  Value y = broadcast.getSrc();
  // c runs along the axis it was not expanded at; y must not.
  if (cast<RankedTensorType>(y.getType()).getDimSize(1 - spread->axis) != 1)
    return std::nullopt;
  return OtherBound{cmp, spread->vector, index, spread->axis, y, inclusive};
}

/// The leaves of the conjunction rooted at `v` (through `arith.andi`s that
/// only it uses).
void collectLeaves(Value v, bool root, SmallVectorImpl<Value> &leaves) {
  auto andOp = v.getDefiningOp<arith::AndIOp>();
  if (andOp && (root || andOp->hasOneUse())) {
    collectLeaves(andOp.getLhs(), false, leaves);
    collectLeaves(andOp.getRhs(), false, leaves);
    return;
  }
  leaves.push_back(v);
}

/// Merges one shared bound into one other bound on the same index in the
/// conjunction rooted at `root`; true if it did.
bool mergeIn(arith::AndIOp root) {
  auto type = dyn_cast<RankedTensorType>(root.getType());
  if (!type || type.getRank() != 2)
    return false;
  SmallVector<Value> leaves;
  collectLeaves(root.getResult(), true, leaves);
  for (size_t i = 0; i < leaves.size(); ++i) {
    // Only an index along the columns (a bound per row): the GPU layouts
    // give a thread few rows and many columns, so a bound per column would
    // cost more to make than it saves (the backward's [keys, queries]
    // masks: 8 more instructions a step).
    std::optional<SharedBound> shared = sharedBoundOf(leaves[i]);
    if (!shared || shared->axis != 0)
      continue;
    for (size_t j = 0; j < leaves.size(); ++j) {
      std::optional<OtherBound> other = j != i ? otherBoundOf(leaves[j]) : std::nullopt;
      if (!other || other->index != shared->index || other->axis != shared->axis)
        continue;
      OpBuilder b(root);
      Location loc = other->cmp.getLoc();
      auto boundType = cast<RankedTensorType>(other->limit.getType());
      Value x = SplatOp::create(b, loc, boundType, shared->limit);
      Value y = other->limit, bound;
      if (other->inclusive) {
        // c < x && c <= y: c < y + 1 where y < x (no wrap there), else c < x.
        Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, y, x);
        Value one = arith::ConstantOp::create(
            b, loc,
            DenseElementsAttr::get(boundType, b.getIntegerAttr(boundType.getElementType(), 1)));
        bound = arith::SelectOp::create(b, loc, below, arith::AddIOp::create(b, loc, y, one), x);
      } else {
        bound = arith::MinSIOp::create(b, loc, x, y);
      }
      Value merged = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::slt, other->spread,
          BroadcastOp::create(b, loc, type.clone(boundType.getElementType()), bound));
      // The conjunction again, without the two leaves, with the merged one.
      Value all = merged;
      for (size_t k = 0; k < leaves.size(); ++k)
        if (k != i && k != j)
          all = arith::AndIOp::create(b, loc, all, leaves[k]);
      root.replaceAllUsesWith(all);
      return true;
    }
  }
  return false;
}

struct MergeUpperBounds : tilec::impl::TileMergeUpperBoundsBase<MergeUpperBounds> {
  void runOnOperation() override {
    SmallVector<arith::AndIOp> roots;
    getOperation()->walk([&](arith::AndIOp op) {
      // Roots only: an and whose users are not ands of the same conjunction.
      bool inner = op->hasOneUse() && isa<arith::AndIOp>(*op->getUsers().begin());
      if (!inner)
        roots.push_back(op);
    });
    for (arith::AndIOp root : roots)
      if (mergeIn(root) && root->use_empty())
        root->erase();
  }
};

} // namespace
