//===- PrefetchLoads.cpp - issue block loads one iteration ahead ----------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec {
#define GEN_PASS_DEF_TILEPREFETCHLOADS
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::tile;

namespace {

/// A load the loop can issue one iteration early: its descriptor and offsets
/// are loop-invariant, except offsets that are the induction variable itself.
bool isPrefetchable(scf::ForOp loop, LoadBlockOp load) {
  if (load->getParentOp() != loop || !loop.isDefinedOutsideOfLoop(load.getDesc()))
    return false;
  bool usesIv = false;
  for (Value offset : load.getOffsets()) {
    if (offset == loop.getInductionVar())
      usesIv = true;
    else if (!loop.isDefinedOutsideOfLoop(offset))
      return false;
  }
  return usesIv;
}

/// A copy of `load` at the builder's point with the induction variable
/// replaced by `iv`.
Value cloneAt(OpBuilder &b, scf::ForOp loop, LoadBlockOp load, Value iv) {
  IRMapping mapping;
  mapping.map(loop.getInductionVar(), iv);
  return b.clone(*load, mapping)->getResult(0);
}

void prefetch(scf::ForOp loop, LoadBlockOp load) {
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  Value first = cloneAt(rewriter, loop, load, loop.getLowerBound());
  Operation *original = load;
  auto grown = cast<scf::ForOp>(*loop.replaceWithAdditionalYields(
      rewriter, ValueRange{first}, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location loc, ArrayRef<BlockArgument>) -> SmallVector<Value> {
        OpBuilder::InsertionGuard guard(b);
        Block *body = b.getInsertionBlock();
        b.setInsertionPointToStart(body);
        Value next = arith::AddIOp::create(b, loc, body->getArgument(0), loop.getStep());
        return {cloneAt(b, loop, cast<LoadBlockOp>(original), next)};
      }));
  BlockArgument carried = grown.getRegionIterArgs().back();
  original->getResult(0).replaceAllUsesWith(carried);
  original->erase();
}

struct PrefetchLoads : tilec::impl::TilePrefetchLoadsBase<PrefetchLoads> {
  void runOnOperation() override {
    // One load at a time: each rewrite replaces its loop.
    while (true) {
      scf::ForOp loop;
      LoadBlockOp load;
      getOperation()->walk([&](LoadBlockOp candidate) {
        auto parent = dyn_cast<scf::ForOp>(candidate->getParentOp());
        if (!loop && parent && isPrefetchable(parent, candidate)) {
          loop = parent;
          load = candidate;
        }
      });
      if (!loop)
        return;
      prefetch(loop, load);
    }
  }
};

} // namespace
