//===- HoistRowTerms.cpp - row-constant score terms out of the softmax ----===//
//
// See the pass description in dialects/Tile/Passes.td. ALiBi's bias
// `slope * (key - query)` costs a subtract, a conversion and a multiply-add
// a score; its query part is the same along a row, which the softmax does
// not see, so the loop adds `slope * (key - q0)` (made once a key block, per
// column) and the running maximum carries the rest.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"

namespace tilec {
#define GEN_PASS_DEF_TILEHOISTROWTERMS
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::tile;

namespace {

/// `broadcast(expand_dims(v, axis))` of a 2-D tile: `v` along `axis`'s
/// other dimension (axis 1: one value per row).
Value spreadSource(Value v, int32_t axis) {
  auto broadcast = v.getDefiningOp<BroadcastOp>();
  auto expand = broadcast ? broadcast.getSrc().getDefiningOp<ExpandDimsOp>() : ExpandDimsOp();
  if (!expand || expand.getAxis() != axis ||
      cast<RankedTensorType>(expand.getSrc().getType()).getRank() != 1)
    return Value();
  return expand.getSrc();
}

/// The scalar `s` of `tile.splat s`, else null.
Value splatSource(Value v) {
  auto splat = v.getDefiningOp<SplatOp>();
  return splat ? splat.getSrc() : Value();
}

/// Whether `v` is `-inf` everywhere (a masked score).
bool isMinusInfinity(Value v) {
  if (Value scalar = splatSource(v))
    v = scalar;
  FloatAttr::ValueType value(0.0f);
  return matchPattern(v, m_ConstantFloat(&value)) && value.isInfinity() && value.isNegative();
}

/// The first row's index `k` of rows `splat(k) + iota`, else null.
Value firstRow(Value rows) {
  auto add = rows.getDefiningOp<arith::AddIOp>();
  if (!add)
    return Value();
  for (auto [a, b] : {std::pair{add.getLhs(), add.getRhs()}, {add.getRhs(), add.getLhs()}})
    if (a.getDefiningOp<IotaOp>())
      if (Value k = splatSource(b))
        return k;
  return Value();
}

/// Scores `shifted` that differ from the original by `rowTerm` (1-D, one
/// value per row): original = shifted + spread(rowTerm).
struct Shift {
  Value shifted;
  Value rowTerm;
};

/// Whether `a` and `b` are the same number: one value, or made alike by
/// side-effect-free ops from such (the offsets two loops made each).
bool sameValue(Value a, Value b) {
  if (a == b)
    return true;
  Operation *x = a.getDefiningOp(), *y = b.getDefiningOp();
  if (!x || !y || x->getNumRegions() || !isMemoryEffectFree(x))
    return false;
  return OperationEquivalence::isEquivalentTo(
      x, y, [](Value l, Value r) { return success(sameValue(l, r)); },
      /*markEquivalent=*/nullptr, OperationEquivalence::IgnoreLocations);
}

/// The running maxima a rewritten loop hands on, `m' + offset`: a next loop
/// shifted by the same offset takes `m'` as it is.
using Restored = llvm::SmallPtrSet<Operation *, 4>;

class RowTermHoister {
public:
  RowTermHoister(scf::ForOp loop, OnlineSoftmaxOp softmax, Restored &restored)
      : loop(loop), softmax(softmax), b(softmax), restored(restored) {}

  /// Rewrites the loop when the softmax's scores have a row term; whether
  /// it did.
  bool run() {
    auto m = dyn_cast<BlockArgument>(softmax.getM());
    if (!m || m.getOwner() != loop.getBody() || m.getArgNumber() == 0 || !m.hasOneUse())
      return false;
    unsigned iterArg = m.getArgNumber() - 1;
    if (loop.getBody()->getTerminator()->getOperand(iterArg) != softmax.getMNew() ||
        !softmax.getMNew().hasOneUse())
      return false;
    if (softmax.getScores().size() != 1) // (scores in parts: not yet)
      return false;
    std::optional<Shift> shift = shiftOf(softmax.getScores()[0]);
    if (!shift)
      return false;
    softmax->setOperand(0, shift->shifted);
    // The running maximum in log2 units runs `rowTerm * t` lower inside
    // the loop (-inf stays -inf).
    b.setInsertionPoint(loop);
    Location loc = loop.getLoc();
    auto rowType = cast<RankedTensorType>(shift->rowTerm.getType());
    Value t = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(softmax.getLog2Scale()));
    Value offset = arith::MulFOp::create(b, loc, shift->rowTerm,
                                         SplatOp::create(b, loc, t, rowType.getShape()));
    // Entering: -inf (no row seen) as it is, a previous loop's maximum with
    // the same offset as that loop left it, else shifted. (A maximum made
    // before the loop keeps its layout: a shifted -inf would be a computed
    // tile and give the loop's maximum a layout of its own.)
    OpOperand &init = loop.getInitArgsMutable()[iterArg];
    auto previous = init.get().getDefiningOp<arith::AddFOp>();
    if (previous && restored.contains(previous) && sameValue(previous.getRhs(), offset))
      init.set(previous.getLhs());
    else if (!isMinusInfinity(init.get()))
      init.set(arith::SubFOp::create(b, loc, init.get(), offset));
    b.setInsertionPointAfter(loop);
    Value result = loop.getResult(iterArg);
    auto leaving = arith::AddFOp::create(b, loc, result, offset);
    result.replaceAllUsesExcept(leaving, leaving);
    restored.insert(leaving);
    return true;
  }

private:
  /// Whether `v` is the same in every iteration: made outside the loop, or
  /// inside by side-effect-free ops from such values (the slope of a head).
  /// (Memoized: the operands of a score term share their subterms.)
  bool invariant(Value v) {
    if (!v)
      return false;
    if (loop.isDefinedOutsideOfLoop(v))
      return true;
    if (auto known = invariants.find(v); known != invariants.end())
      return known->second;
    Operation *op = v.getDefiningOp();
    bool result =
        op && op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
        llvm::all_of(op->getOperands(), [&](Value operand) { return invariant(operand); });
    invariants[v] = result;
    return result;
  }

  /// Moves what makes the invariant `v` in the loop before it.
  void hoist(Value v) {
    if (loop.isDefinedOutsideOfLoop(v))
      return;
    Operation *op = v.getDefiningOp();
    for (Value operand : op->getOperands())
      hoist(operand);
    op->moveBefore(loop);
  }

  /// The scores with their row term split off: through a mask's select
  /// (`-inf` elsewhere) to a sum with a term that has one.
  std::optional<Shift> shiftOf(Value scores) {
    if (auto select = scores.getDefiningOp<arith::SelectOp>()) {
      if (!isMinusInfinity(select.getFalseValue()))
        return std::nullopt;
      std::optional<Shift> inner = shiftOf(select.getTrueValue());
      if (!inner)
        return std::nullopt;
      b.setInsertionPoint(select);
      inner->shifted = arith::SelectOp::create(b, select.getLoc(), select.getCondition(),
                                               inner->shifted, select.getFalseValue());
      return inner;
    }
    auto add = scores.getDefiningOp<arith::AddFOp>();
    if (!add)
      return std::nullopt;
    for (auto [term, rest] : {std::pair{add.getRhs(), add.getLhs()}, {add.getLhs(), add.getRhs()}})
      if (std::optional<Shift> shift = shiftOfTerm(term, add)) {
        if (shift->shifted) {
          b.setInsertionPoint(add);
          shift->shifted =
              arith::AddFOp::create(b, add.getLoc(), rest, shift->shifted, add.getFastmath());
        } else {
          shift->shifted = rest;
        }
        return shift;
      }
    return std::nullopt;
  }

  /// A term of a sum: one value per row (`spread(r)`: all of it leaves,
  /// `shifted` null), or `c * float(spread(keys) - spread(rows))` with rows
  /// `k + iota` (`c * float(keys - k)` per column stays, `c * float(k -
  /// rows)` leaves). `r`, `c` and `k` must not change in the loop.
  std::optional<Shift> shiftOfTerm(Value term, arith::AddFOp add) {
    if (Value rows = spreadSource(term, 1); invariant(rows)) {
      hoist(rows);
      return Shift{Value(), rows};
    }
    auto mul = term.getDefiningOp<arith::MulFOp>();
    if (!mul)
      return std::nullopt;
    for (auto [scale, diff] :
         {std::pair{mul.getLhs(), mul.getRhs()}, {mul.getRhs(), mul.getLhs()}}) {
      Value c = splatSource(scale);
      auto toFloat = diff.getDefiningOp<CastOp>();
      auto sub = toFloat ? toFloat.getSrc().getDefiningOp<arith::SubIOp>() : arith::SubIOp();
      if (!invariant(c) || !sub)
        continue;
      Value keys = spreadSource(sub.getLhs(), 0), rows = spreadSource(sub.getRhs(), 1);
      Value k = rows ? firstRow(rows) : Value();
      if (!keys || !invariant(rows) || !invariant(k))
        continue;
      for (Value v : {c, rows, k})
        hoist(v);
      // Per column, then spread: the subtraction, conversion and multiply
      // once a column instead of once a score.
      Location loc = mul.getLoc();
      b.setInsertionPoint(add);
      auto keyType = cast<RankedTensorType>(keys.getType());
      Type f32 = b.getF32Type();
      Value fromK =
          arith::SubIOp::create(b, loc, keys, SplatOp::create(b, loc, k, keyType.getShape()));
      Value column = arith::MulFOp::create(b, loc, SplatOp::create(b, loc, c, keyType.getShape()),
                                           CastOp::create(b, loc, fromK, f32), mul.getFastmath());
      Value spread =
          BroadcastOp::create(b, loc, term.getType(), ExpandDimsOp::create(b, loc, column, 0));
      // The row part once, before the loop.
      b.setInsertionPoint(loop);
      auto rowType = cast<RankedTensorType>(rows.getType());
      Value toK =
          arith::SubIOp::create(b, loc, SplatOp::create(b, loc, k, rowType.getShape()), rows);
      Value row = arith::MulFOp::create(b, loc, SplatOp::create(b, loc, c, rowType.getShape()),
                                        CastOp::create(b, loc, toK, f32), mul.getFastmath());
      return Shift{spread, row};
    }
    return std::nullopt;
  }

  scf::ForOp loop;
  OnlineSoftmaxOp softmax;
  OpBuilder b;
  Restored &restored;
  llvm::DenseMap<Value, bool> invariants;
};

struct TileHoistRowTerms : public tilec::impl::TileHoistRowTermsBase<TileHoistRowTerms> {
  void runOnOperation() override {
    SmallVector<std::pair<scf::ForOp, OnlineSoftmaxOp>> steps;
    getOperation()->walk([&](OnlineSoftmaxOp softmax) {
      if (auto loop = dyn_cast<scf::ForOp>(softmax->getParentOp()))
        steps.push_back({loop, softmax});
    });
    Restored restored;
    for (auto [loop, softmax] : steps)
      RowTermHoister(loop, softmax, restored).run();
    // A maximum the next loop took as it was.
    for (Operation *op : restored)
      if (op->use_empty())
        op->erase();
  }
};

} // namespace
