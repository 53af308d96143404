//===- InsertBarriers.cpp - fences and barriers for shared-memory hazards -===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUINSERTBARRIERS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;

namespace {

/// The buffer a shared-memory value views (a slot's ring, and so on).
static Value rootBuffer(Value buffer) {
  while (auto slot = buffer.getDefiningOp<SlotOp>())
    buffer = slot.getBuffer();
  return buffer;
}

/// What this thread has done to shared memory since the last barrier.
struct Hazards {
  llvm::SmallDenseSet<Value> written; ///< by the generic proxy, not published
  llvm::SmallDenseSet<Value> read;    ///< by the generic proxy
  bool fenced = false;                ///< written buffers fenced for the async proxy
  bool empty() const { return written.empty() && read.empty(); }
  void clear() { *this = Hazards(); }
};

/// How an op touches shared memory: the buffers it writes, reads in the
/// generic proxy, and reads in the async proxy.
struct Access {
  SmallVector<Value> writes, reads, asyncReads;
};

static Access accessOf(Operation *op) {
  Access access;
  if (auto store = dyn_cast<LocalStoreOp>(op))
    access.writes.push_back(rootBuffer(store.getDst()));
  else if (auto copy = dyn_cast<AsyncCopyOp>(op))
    access.writes.push_back(rootBuffer(copy.getDst()));
  else if (auto load = dyn_cast<LocalLoadOp>(op))
    access.reads.push_back(rootBuffer(load.getSrc()));
  else if (auto dot = dyn_cast<WarpgroupDotOp>(op)) {
    if (isa<SharedMemoryType>(dot.getA().getType()))
      access.asyncReads.push_back(rootBuffer(dot.getA()));
    access.asyncReads.push_back(rootBuffer(dot.getB()));
  } else if (auto store = dyn_cast<TMAStoreOp>(op)) {
    access.asyncReads.push_back(rootBuffer(store.getSrc()));
  }
  return access;
}

class BarrierPlacer {
public:
  /// `canSync`: every thread of the group (block or role) runs `block`, so
  /// a barrier may go in it (not so in a branch).
  void placeIn(Block &block, Hazards &hazards, bool canSync) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isa<BarrierOp, BarrierSyncOp>(op)) {
        hazards.clear();
        continue;
      }
      if (auto fence = dyn_cast<FenceOp>(op)) {
        hazards.fenced |= fence.getKind() == FenceKind::async_proxy;
        continue;
      }
      if (op.getNumRegions()) {
        placeInRegions(op, hazards, canSync);
        continue;
      }
      Access access = accessOf(&op);
      bool asyncHazard = llvm::any_of(access.asyncReads, [&](Value b) {
        return hazards.written.contains(b);
      });
      bool hazard = asyncHazard ||
                    llvm::any_of(access.reads, [&](Value b) { return hazards.written.contains(b); }) ||
                    llvm::any_of(access.writes, [&](Value b) { return hazards.read.contains(b); });
      if (hazard && canSync)
        synchronize(&op, asyncHazard && !hazards.fenced, hazards);
      for (Value b : access.writes) {
        hazards.written.insert(b);
        hazards.fenced = false;
      }
      for (Value b : access.reads)
        hazards.read.insert(b);
    }
  }

private:
  /// An op with regions starts them synchronized. A loop body or a warp
  /// role, which every thread of its group runs to the end, publishes what
  /// it leaves there (the next iteration, or the role's other threads, may
  /// read it); a role's writes stay pending for the other roles, and a
  /// branch's (which may be a subset of the threads, where no barrier can
  /// go) for what follows.
  void placeInRegions(Operation &op, Hazards &hazards, bool canSync) {
    if (!hazards.empty() && canSync)
      synchronize(&op, !hazards.written.empty() && !hazards.fenced, hazards);
    bool publishAtEnd = canSync && isa<scf::ForOp, WarpSpecializeOp>(op);
    bool inside = canSync && !isa<scf::IfOp>(op);
    Hazards after;
    for (Region &region : op.getRegions())
      for (Block &block : region) {
        Hazards pending = canSync ? Hazards() : hazards;
        placeIn(block, pending, inside);
        if (pending.empty())
          continue;
        if (publishAtEnd && !block.empty())
          synchronizeAtEnd(block, !pending.fenced && asyncReadsAny(op, pending.written));
        if (!publishAtEnd || isa<WarpSpecializeOp>(op))
          after.written.insert(pending.written.begin(), pending.written.end());
        if (!publishAtEnd)
          after.read.insert(pending.read.begin(), pending.read.end());
      }
    hazards = after;
  }

  void synchronize(Operation *before, bool fenceAsync, Hazards &hazards) {
    OpBuilder b(before);
    emitSync(b, before->getLoc(), before, fenceAsync);
    hazards.clear();
  }

  /// Some op in `op` reads one of `buffers` through the async proxy (then
  /// what is published at the end of a loop body or role is fenced too).
  static bool asyncReadsAny(Operation &op, const llvm::SmallDenseSet<Value> &buffers) {
    WalkResult found = op.walk([&](Operation *inner) {
      for (Value b : accessOf(inner).asyncReads)
        if (buffers.contains(b))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    return found.wasInterrupted();
  }

  /// At the end of `block` (before its terminator, if it has one).
  void synchronizeAtEnd(Block &block, bool fenceAsync) {
    Operation *last = &block.back();
    OpBuilder b(last->getContext());
    if (last->hasTrait<OpTrait::IsTerminator>())
      b.setInsertionPoint(last);
    else
      b.setInsertionPointAfter(last);
    emitSync(b, last->getLoc(), last, fenceAsync);
  }

  /// The fence (if asked) and the barrier of the threads that run `at`: the
  /// block's, or the named barrier of its warp role.
  void emitSync(OpBuilder &b, Location loc, Operation *at, bool fenceAsync) {
    if (fenceAsync)
      FenceOp::create(b, loc, FenceKind::async_proxy);
    for (Operation *parent = at; parent; parent = parent->getParentOp()) {
      auto roles = dyn_cast_or_null<WarpSpecializeOp>(parent->getParentOp());
      if (!roles)
        continue;
      unsigned index = parent->getParentRegion()->getRegionNumber();
      Value id = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(index + 1));
      BarrierSyncOp::create(b, loc, id, 32 * roles.getWarps()[index]);
      return;
    }
    BarrierOp::create(b, loc);
  }
};

struct TileGPUInsertBarriers
    : public tilec::tilegpu::impl::TileGPUInsertBarriersBase<TileGPUInsertBarriers> {
  void runOnOperation() override {
    for (Operation &op : getOperation().getBody()->getOperations())
      if (auto kernel = dyn_cast<FunctionOpInterface>(op); kernel && !kernel.isExternal()) {
        Hazards hazards;
        BarrierPlacer().placeIn(kernel.getFunctionBody().front(), hazards, /*canSync=*/true);
      }
  }
};

} // namespace
