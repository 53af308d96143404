//===- PingPong.cpp - consumer warpgroups take turns on the tensor cores --===//
//
// In a warp role of several warpgroups that all run the same loop (the
// consumers of a warp-specialized attention kernel), each warpgroup issues
// an iteration's first dots (S = Q·Kᵀ) and then waits for them and runs the
// softmax. Left alone, the warpgroups drift into lock step: their dots
// queue on the tensor cores together and their softmaxes leave the tensor
// cores idle together. This pass makes them take turns, FlashAttention-3's
// "ping-pong": warpgroup w issues its opening dots only after warpgroup
// w - 1 has issued its own, so while one warpgroup runs its softmax the
// next one's dots run on the tensor cores.
//
//   %wg = tilegpu.warpgroup_id                 // in the role
//   if %wg == G - 1: barrier_arrive base, 256  // warpgroup 0 goes first
//   scf.for ... {
//     ...
//     barrier_sync base + %wg, 256             // my turn
//     warpgroup_dot ... (the iteration's first run of dots)
//     barrier_arrive base + (%wg + 1) % G, 256 // the next warpgroup's turn
//     dot_wait ...
//   }
//   if %wg == 0: barrier_sync base, 256        // the last turn's arrival
//
// Named barrier base + w has 256 arrivals: warpgroup w waiting and the
// warpgroup before it arriving. The arrivals balance the waits: the extra
// arrival that lets warpgroup 0 go first is matched by its wait at the
// end. Barriers 1..R belong to the R roles (tilegpu-insert-barriers);
// base = R + 1. Tile code is uniform over the program (no control flow
// depends on the thread), so every warpgroup takes the same turns.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/IR/Matchers.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUPINGPONG
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;

namespace {

/// Threads at each turn barrier: one warpgroup waiting, one arriving.
constexpr int32_t kTurnThreads = 256;
/// Named barriers a block has (0 is the block barrier).
constexpr int64_t kNamedBarriers = 16;

/// An iteration's opening dots: from the first `warpgroup_dot` of the body
/// to the last one issued before anything waits, synchronizes or branches.
struct Turn {
  Operation *first = nullptr, *last = nullptr;
};

static bool endsTurn(Operation &op) {
  return op.getNumRegions() ||
         isa<DotWaitOp, MBarrierWaitOp, MBarrierArriveOp, BarrierSyncOp, BarrierArriveOp,
             BarrierOp>(op);
}

static std::optional<Turn> openingDots(scf::ForOp loop) {
  Turn turn;
  for (Operation &op : *loop.getBody()) {
    if (isa<WarpgroupDotOp>(op)) {
      turn.first = turn.first ? turn.first : &op;
      turn.last = &op;
    } else if (turn.first && endsTurn(op)) {
      break;
    }
  }
  if (!turn.first)
    return std::nullopt;
  return turn;
}

/// Whether the role's turns are already in place (a second run): a named
/// barrier whose id depends on the warpgroup. (A `warpgroup_id` alone is
/// no sign: tilegpu-tma-stores picks the storing warp with one.)
static bool hasTurns(Block &role) {
  return role
      .walk([](BarrierSyncOp sync) {
        return matchPattern(sync.getId(), m_Constant()) ? WalkResult::advance()
                                                        : WalkResult::interrupt();
      })
      .wasInterrupted();
}

static Value constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, value, 32);
}

/// `then` run by the warpgroup `which` only.
static void ifWarpgroup(OpBuilder &b, Location loc, Value warpgroup, int64_t which,
                        llvm::function_ref<void(OpBuilder &)> then) {
  Value is = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpgroup,
                                   constant(b, loc, which));
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, is, /*withElse=*/false);
  OpBuilder inside = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
  then(inside);
}

/// Puts the turns into role `index` of `roles`; a warning says why not
/// when the role has dots but cannot take turns.
static void takeTurns(WarpSpecializeOp roles, unsigned index) {
  Block &role = roles.getRoles()[index].front();
  SmallVector<std::pair<scf::ForOp, Turn>> loops;
  role.walk([&](scf::ForOp loop) {
    if (std::optional<Turn> turn = openingDots(loop))
      loops.push_back({loop, *turn});
  });
  if (loops.empty() || hasTurns(role))
    return;
  const int64_t warpgroups = roles.getWarps()[index] / 4;
  const int64_t base = static_cast<int64_t>(roles.getRoles().size()) + 1;
  if (warpgroups < 2) {
    roles.emitWarning("not ping-ponged: role ") << index << " has one warpgroup";
    return;
  }
  if (base + warpgroups > kNamedBarriers) {
    roles.emitWarning("not ping-ponged: role ")
        << index << " would need named barriers up to " << base + warpgroups - 1 << " (0-15)";
    return;
  }
  Location loc = roles.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&role);
  Value warpgroup = WarpgroupIdOp::create(b, loc, b.getI32Type());
  Value mine = arith::AddIOp::create(b, loc, warpgroup, constant(b, loc, base));
  Value last = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpgroup,
                                     constant(b, loc, warpgroups - 1));
  Value next = arith::SelectOp::create(b, loc, last, constant(b, loc, base),
                                       arith::AddIOp::create(b, loc, mine, constant(b, loc, 1)));
  ifWarpgroup(b, loc, warpgroup, warpgroups - 1, [&](OpBuilder &then) {
    BarrierArriveOp::create(then, loc, constant(then, loc, base), kTurnThreads);
  });
  for (auto &[loop, turn] : loops) {
    OpBuilder before(turn.first);
    BarrierSyncOp::create(before, loop.getLoc(), mine, kTurnThreads);
    OpBuilder after(turn.last->getContext());
    after.setInsertionPointAfter(turn.last);
    BarrierArriveOp::create(after, loop.getLoc(), next, kTurnThreads);
  }
  OpBuilder end = OpBuilder::atBlockEnd(&role);
  ifWarpgroup(end, loc, warpgroup, 0, [&](OpBuilder &then) {
    BarrierSyncOp::create(then, loc, constant(then, loc, base), kTurnThreads);
  });
}

struct TileGPUPingPong : public tilec::tilegpu::impl::TileGPUPingPongBase<TileGPUPingPong> {
  void runOnOperation() override {
    getOperation().walk([](WarpSpecializeOp roles) {
      for (unsigned index = 0; index < roles.getRoles().size(); ++index)
        takeTurns(roles, index);
    });
  }
};

} // namespace
