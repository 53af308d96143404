//===- PersistentGrid.cpp - programs that loop over the logical grid ------===//
//
// A kernel written for a grid of gx x gy x gz programs becomes one whose
// few programs (as many as fit on the GPU) each run a loop over the logical
// programs t = program_id(0), + num_programs(0), ... below gx·gy·gz, x
// fastest (or, on a kernel whose programs along one axis come longest
// first, that axis slowest within sections of the other axes' indices, in
// rounds of alternating direction). The logical grid comes in three
// trailing i32 arguments.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"

namespace tilec {
#define GEN_PASS_DEF_TILEPERSISTENTGRID
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using namespace tilec::tile;

namespace {

/// Why `kernel` cannot run as a persistent grid, or nothing.
std::optional<std::string> whyNot(func::FuncOp kernel) {
  if (kernel.getNumResults())
    return "it returns values";
  if (!kernel.getBody().hasOneBlock())
    return "its body has more than one block";
  if (Attribute longest = kernel->getAttr(tilec::kLongestFirstAxisAttrName)) {
    auto axis = dyn_cast<IntegerAttr>(longest);
    if (!axis || axis.getInt() < 0 || axis.getInt() > 2)
      return std::string(tilec::kLongestFirstAxisAttrName) + " must be a grid axis (0, 1 or 2)";
  }
  return std::nullopt;
}

/// The logical program of tile `t` on a kernel whose programs along `slow`
/// come longest first (see the pass description). `inside` builds in the
/// tile loop, `before` ahead of it (what does not change from tile to tile:
/// LICM does not move divisions).
void longestFirstProgram(OpBuilder &inside, OpBuilder &before, Location loc, Value t, Value step,
                         Value total, const Value grid[3], unsigned slow, unsigned roundsPerSection,
                         bool backwardRounds, Value logical[3]) {
  Type i32 = inside.getI32Type();
  // The programs take the tiles in rounds of `step`, program p the p-th
  // of a round; every other full round runs backwards, so the program
  // that took a round's longest tile takes the next round's shortest.
  // The longest-first axis is the slowest: the rounds go from long tiles
  // to short ones over all of the other two axes — or over those of a
  // section (below), the rounds counted from the section's start.
  auto c = [&](int64_t v) { return arith::ConstantIntOp::create(inside, loc, i32, v); };
  // Index `i` of `count` tiles taken in rounds, every other full one
  // backwards.
  auto snake = [&](Value i, Value count) -> Value {
    if (!backwardRounds)
      return i;
    Value round = arith::DivSIOp::create(inside, loc, i, step);
    Value roundStart = arith::MulIOp::create(inside, loc, round, step);
    Value lane = arith::SubIOp::create(inside, loc, i, roundStart);
    Value roundEnd = arith::AddIOp::create(inside, loc, roundStart, step);
    Value odd = arith::CmpIOp::create(inside, loc, arith::CmpIPredicate::ne,
                                      arith::AndIOp::create(inside, loc, round, c(1)), c(0));
    Value full = arith::CmpIOp::create(inside, loc, arith::CmpIPredicate::sle, roundEnd, count);
    Value mirrored = arith::SubIOp::create(
        inside, loc, arith::SubIOp::create(inside, loc, roundEnd, c(1)), lane);
    return arith::SelectOp::create(inside, loc, arith::AndIOp::create(inside, loc, odd, full),
                                   mirrored, i);
  };
  unsigned fast = slow == 0 ? 1 : 0, middle = slow == 2 ? 1 : 2;
  Value inner = arith::MulIOp::create(before, loc, grid[fast], grid[middle]);
  Value rest;
  if (roundsPerSection == 0) {
    Value u = snake(t, total);
    rest = arith::RemSIOp::create(inside, loc, u, inner);
    logical[slow] = arith::DivSIOp::create(inside, loc, u, inner);
  } else {
    // Sections of `width` indices of the other axes (attention's heads),
    // about `roundsPerSection` rounds of tiles each, one after the
    // other, the longest-first axis slowest inside each: the programs
    // running at once read the keys of a few heads, not of a round's
    // worth of heads (each a different K and V: at N = 4k, 132 heads'
    // K and V are 264 MB, five times the L2). The rounds restart with
    // each section, so that its long and short tiles pair up in the
    // programs as over the whole grid; a section's last, partial round
    // (its shortest tiles) goes to the programs after it.
    auto k = [&](int64_t v) { return arith::ConstantIntOp::create(before, loc, i32, v); };
    Value longestTiles = grid[slow];
    Value roundsOfTiles = arith::MulIOp::create(before, loc, step, k(roundsPerSection));
    Value headsForRounds = arith::DivSIOp::create(
        before, loc,
        arith::AddIOp::create(before, loc, roundsOfTiles,
                              arith::SubIOp::create(before, loc, longestTiles, k(1))),
        longestTiles);
    Value width = arith::MinSIOp::create(before, loc, inner,
                                         arith::MaxSIOp::create(before, loc, k(1), headsForRounds));
    Value sectionTiles = arith::MulIOp::create(before, loc, width, longestTiles);
    Value section = arith::DivSIOp::create(inside, loc, t, sectionTiles);
    Value firstRest = arith::MulIOp::create(inside, loc, section, width);
    // The last section may be narrower.
    Value sectionWidth = arith::MinSIOp::create(
        inside, loc, width, arith::SubIOp::create(inside, loc, inner, firstRest));
    Value within =
        snake(arith::SubIOp::create(inside, loc, t,
                                    arith::MulIOp::create(inside, loc, section, sectionTiles)),
              arith::MulIOp::create(inside, loc, sectionWidth, longestTiles));
    logical[slow] = arith::DivSIOp::create(inside, loc, within, sectionWidth);
    rest = arith::AddIOp::create(inside, loc, firstRest,
                                 arith::RemSIOp::create(inside, loc, within, sectionWidth));
  }
  logical[fast] = arith::RemSIOp::create(inside, loc, rest, grid[fast]);
  logical[middle] = arith::DivSIOp::create(inside, loc, rest, grid[fast]);
}

LogicalResult makePersistent(func::FuncOp kernel, unsigned roundsPerSection, bool tileCounter) {
  MLIRContext *context = kernel.getContext();
  Location loc = kernel.getLoc();
  Type i32 = IntegerType::get(context, 32);
  unsigned first = kernel.getNumArguments();
  SmallVector<unsigned> positions(3, first);
  SmallVector<Type> types(3, i32);
  SmallVector<DictionaryAttr> attrs(3, DictionaryAttr::get(context));
  SmallVector<Location> locs(3, loc);
  if (failed(kernel.insertArguments(positions, types, attrs, locs)))
    return kernel.emitError("cannot run as a persistent grid: its grid arguments cannot be added");
  Block &body = kernel.getBody().front();
  Value grid[3] = {body.getArgument(first), body.getArgument(first + 1),
                   body.getArgument(first + 2)};

  // The ops of the body, before anything is added to it.
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);

  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Value start = ProgramIdOp::create(b, loc, 0);
  Value step = NumProgramsOp::create(b, loc, 0);
  Value total = arith::MulIOp::create(b, loc, arith::MulIOp::create(b, loc, grid[0], grid[1]),
                                      grid[2]);
  auto tiles = scf::ForOp::create(b, loc, start, total, step);
  Block *loopBody = tiles.getBody();
  for (Operation *op : ops)
    op->moveBefore(loopBody->getTerminator());

  OpBuilder inside = OpBuilder::atBlockBegin(loopBody);
  Value t = tiles.getInductionVar();
  Value logical[3];
  if (auto longest = kernel->getAttrOfType<IntegerAttr>(tilec::kLongestFirstAxisAttrName)) {
    OpBuilder before(tiles);
    longestFirstProgram(inside, before, loc, t, step, total, grid, longest.getInt(),
                        roundsPerSection, /*backwardRounds=*/!tileCounter, logical);
  } else {
    Value rest = arith::DivSIOp::create(inside, loc, t, grid[0]);
    logical[0] = arith::RemSIOp::create(inside, loc, t, grid[0]);
    logical[1] = arith::RemSIOp::create(inside, loc, rest, grid[1]);
    logical[2] = arith::DivSIOp::create(inside, loc, rest, grid[1]);
  }
  SmallVector<Operation *> queries;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      if (isa<ProgramIdOp, NumProgramsOp>(nested))
        queries.push_back(nested);
    });
  for (Operation *query : queries) {
    if (auto id = dyn_cast<ProgramIdOp>(query))
      id.replaceAllUsesWith(logical[id.getAxis()]); // axes are 0-2 (verified)
    else
      query->replaceAllUsesWith(ValueRange{grid[cast<NumProgramsOp>(query).getAxis()]});
    query->erase();
  }
  // What does not depend on the tile (descriptors, constants) is made once.
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(tiles.getOperation()));
  kernel->setAttr(tilec::kPersistentAttrName, UnitAttr::get(context));
  if (tileCounter)
    kernel->setAttr(tilec::kTileCounterAttrName, UnitAttr::get(context));
  return success();
}

struct TilePersistentGrid : public tilec::impl::TilePersistentGridBase<TilePersistentGrid> {
  using TilePersistentGridBase::TilePersistentGridBase;

  void runOnOperation() override {
    SmallVector<func::FuncOp> kernels;
    // A kernel that already loops over its grid (IR printed after this
    // pass, --emit=gpu, compiled again) stays as it is.
    for (auto kernel : getOperation().getOps<func::FuncOp>())
      if (!kernel.isExternal() && !kernel->hasAttr(tilec::kPersistentAttrName))
        kernels.push_back(kernel);
    for (func::FuncOp kernel : kernels) {
      if (std::optional<std::string> why = whyNot(kernel)) {
        kernel.emitError("cannot run as a persistent grid: ") << *why;
        return signalPassFailure();
      }
      if (failed(makePersistent(kernel, roundsPerSection, tileCounter)))
        return signalPassFailure();
    }
  }
};

} // namespace
