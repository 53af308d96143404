//===- SinkDotWaits.cpp - wait for a wgmma where its result is first read -===//
//
// tilegpu-lower-dots waits for every warpgroup_dot at once. First, a wait
// whose accumulators only feed the next dot's `acc` (a sum over K split into
// parts: S = Q·Kᵀ over a head dim's column tiles) goes: that dot chains onto
// the token and adds onto the accumulators in flight, so its steps issue
// right behind the first ones instead of after they finish. Then it moves
// each `dot_wait` down its block to just before the first op that reads its
// accumulators (or holds such a reader in its regions), so the tensor cores
// work on that dot while the ops in between run: another row group's
// softmax, the next dot's issue. wgmma groups complete in issue order, so
// the wait's `pending` becomes the number of warpgroup_dots issued between
// the dot and the wait's new place (0 when some are nested in regions
// there, which this count cannot see). A wait does not move past an op that
// writes a shared buffer the dot reads, nor past an arrival on a barrier
// (an mbarrier's or a named one), which may hand the dot's buffers to
// other threads. Last, a wait whose dot an earlier wait of the block
// already completes joins that wait (one wgmma.wait_group, the
// accumulators taken there). With keep-work-above-waits, at the very end, a
// loop body's wait takes the small f32 tiles computed between its dot and
// it that the loop carries (the softmax's row sums) as `after` values, so
// that ptxas keeps their computation above the wait too.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUSINKDOTWAITS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;

namespace {

/// `op` (or an op nested in it) writes one of `buffers`.
static bool writesAny(Operation *op, ArrayRef<Value> buffers) {
  WalkResult found = op->walk([&](Operation *inner) {
    Value written;
    if (auto store = dyn_cast<LocalStoreOp>(inner))
      written = store.getDst();
    else if (auto copy = dyn_cast<AsyncCopyOp>(inner))
      written = copy.getDst();
    else if (auto tma = dyn_cast<TMALoadOp>(inner))
      written = tma.getDst();
    if (written && llvm::is_contained(buffers, rootBuffer(written)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// `op` (or an op nested in it) arrives on a barrier: an mbarrier's, or a
/// named or block barrier (placed by hand; tilegpu-insert-barriers runs
/// later).
static bool arrives(Operation *op) {
  return op->walk([](Operation *inner) {
              return isa<MBarrierArriveOp, BarrierArriveOp, BarrierSyncOp, BarrierOp>(inner)
                         ? WalkResult::interrupt()
                         : WalkResult::advance();
            }).wasInterrupted();
}

/// `op` reads one of `values` (in its operands or in its regions).
static bool readsAny(Operation *op, ValueRange values) {
  WalkResult found = op->walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (llvm::is_contained(values, operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Drops `wait` where its one result is only the accumulator of a later
/// warpgroup_dot of its block, with nothing in between that writes the
/// first dot's buffers or arrives on a barrier (the wait would have ended
/// its reads there): that dot chains onto the wait's token instead.
static void chain(DotWaitOp wait) {
  if (wait.getTokens().size() != 1 || !wait.getResults()[0].hasOneUse())
    return;
  Value token = wait.getTokens().front();
  auto first = token.getDefiningOp<WarpgroupDotOp>();
  OpOperand &use = *wait.getResults()[0].getUses().begin();
  auto next = dyn_cast<WarpgroupDotOp>(use.getOwner());
  if (!first || !token.hasOneUse() || !next || use.get() != next.getAcc() ||
      next->getBlock() != wait->getBlock())
    return;
  SmallVector<Value, 2> buffers = dotOperandBuffers(first);
  for (Operation *op = wait->getNextNode(); op != next.getOperation(); op = op->getNextNode())
    if (writesAny(op, buffers) || arrives(op))
      return;
  next.getAccMutable().assign(token);
  wait->erase();
}

static void sink(DotWaitOp wait, bool beforeNextDot) {
  if (wait.getTokens().size() != 1)
    return;
  auto dot = wait.getTokens().front().getDefiningOp<WarpgroupDotOp>();
  if (!dot || dot->getBlock() != wait->getBlock())
    return;
  SmallVector<Value, 2> buffers = dotOperandBuffers(dot);
  Operation *stop = wait->getNextNode();
  while (stop && !stop->hasTrait<OpTrait::IsTerminator>() && !readsAny(stop, wait.getResults()) &&
         !writesAny(stop, buffers) && !arrives(stop) &&
         !(beforeNextDot && isa<WarpgroupDotOp>(stop)))
    stop = stop->getNextNode();
  if (!stop)
    return;
  wait->moveBefore(stop);
  int32_t issued = 0;
  bool hidden = false;
  for (Operation *op = dot->getNextNode(); op != wait.getOperation(); op = op->getNextNode()) {
    if (isa<WarpgroupDotOp>(op))
      ++issued;
    else if (op->getNumRegions() && op->walk([](WarpgroupDotOp) {
                                        return WalkResult::interrupt();
                                      }).wasInterrupted())
      hidden = true;
  }
  wait.setPending(hidden ? 0 : issued);
}

/// Joins `wait` to an earlier wait of its block that already completes its
/// dot (no more dots issued since the dot than that wait leaves pending):
/// the accumulators are taken there. The later wait would pass at once,
/// but ptxas counts wgmma groups only along straight code: across a branch
/// in between (an elected thread's TMA store) it takes the accumulators
/// read after the later wait for ones in flight and serializes every wgmma
/// of the kernel (C7514).
static void joinEarlierWait(DotWaitOp wait) {
  if (wait.getTokens().size() != 1)
    return;
  Value token = wait.getTokens().front();
  auto dot = token.getDefiningOp<WarpgroupDotOp>();
  if (!dot || dot->getBlock() != wait->getBlock())
    return;
  int32_t issued = 0;
  for (Operation *op = dot->getNextNode(); op != wait.getOperation(); op = op->getNextNode()) {
    if (isa<WarpgroupDotOp>(op))
      ++issued;
    auto earlier = dyn_cast<DotWaitOp>(op);
    if (!earlier || earlier.getPending() > issued)
      continue;
    SmallVector<Value> tokens(earlier.getTokens());
    tokens.push_back(token);
    // The later wait's `after` values computed before the earlier one
    // (the others' work no longer sits above any wait).
    SmallVector<Value> after(earlier.getAfter());
    for (Value value : wait.getAfter()) {
      Operation *def = value.getDefiningOp();
      if (!def || def->getBlock() != earlier->getBlock() || def->isBeforeInBlock(earlier))
        after.push_back(value);
    }
    OpBuilder builder(earlier);
    auto joined =
        DotWaitOp::create(builder, earlier.getLoc(), tokens, after, earlier.getPending());
    earlier.replaceAllUsesWith(joined.getResults().drop_back());
    wait.replaceAllUsesWith(joined.getResults().take_back());
    earlier.erase();
    wait.erase();
    return;
  }
}

/// Registers a thread holds of `value`'s tile (0 where its type is no
/// distributed f32 tile).
static int64_t f32Registers(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.getElementType().isF32())
    return 0;
  FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
  return succeeded(layout) ? layout->numRegs() : 0;
}

/// At most this many registers a thread go to one wait's `after` (each
/// costs an instruction in the loop).
constexpr int64_t kMaxAfterRegisters = 8;

/// Keeps the work between `wait`'s dot and `wait` above the wait in the
/// machine code too: the small f32 tiles computed there that the loop
/// body's scf.yield carries on (a softmax's row sums and maxima, which
/// every exp2 of the step feeds) become its `after` values, unless an
/// earlier wait of the block already has them (`pinned`). ptxas otherwise
/// schedules the wait as early as its registers allow, and the softmax
/// that sank below it in the IR waits for the P·V it should run beside.
static void keepWorkAbove(DotWaitOp wait, DenseSet<Value> &pinned) {
  if (wait.getTokens().size() != 1)
    return;
  auto dot = wait.getTokens().front().getDefiningOp<WarpgroupDotOp>();
  if (!dot || dot->getBlock() != wait->getBlock())
    return;
  // A loop body's yield (a warp role's region has no terminator; an
  // scf.if's yield carries nothing to a next iteration).
  auto terminator = dyn_cast<scf::YieldOp>(&wait->getBlock()->back());
  if (!terminator || !isa<scf::ForOp, scf::WhileOp>(terminator->getParentOp()))
    return;
  SmallVector<Value> after(wait.getAfter());
  int64_t registers = 0;
  for (Operation *op = dot->getNextNode(); op != wait.getOperation(); op = op->getNextNode())
    for (Value result : op->getResults()) {
      int64_t count = f32Registers(result);
      bool yielded = llvm::is_contained(terminator->getOperands(), result);
      if (!yielded || !count || pinned.contains(result) ||
          registers + count > kMaxAfterRegisters)
        continue;
      after.push_back(result);
      pinned.insert(result);
      registers += count;
    }
  wait.getAfterMutable().assign(after);
}

struct TileGPUSinkDotWaits
    : public tilec::tilegpu::impl::TileGPUSinkDotWaitsBase<TileGPUSinkDotWaits> {
  using Base::Base;
  void runOnOperation() override {
    SmallVector<DotWaitOp> waits;
    getOperation().walk([&](DotWaitOp wait) { waits.push_back(wait); });
    for (DotWaitOp wait : waits)
      chain(wait);
    waits.clear();
    getOperation().walk([&](DotWaitOp wait) { waits.push_back(wait); });
    for (DotWaitOp wait : waits)
      sink(wait, waitBeforeNextDot);
    // In their new order: a wait joins only waits already visited.
    waits.clear();
    getOperation().walk([&](DotWaitOp wait) { waits.push_back(wait); });
    for (DotWaitOp wait : waits)
      joinEarlierWait(wait);
    if (!keepWorkAboveWaits)
      return;
    DenseMap<Block *, DenseSet<Value>> pinned;
    getOperation().walk([&](DotWaitOp wait) { keepWorkAbove(wait, pinned[wait->getBlock()]); });
  }
};

} // namespace
