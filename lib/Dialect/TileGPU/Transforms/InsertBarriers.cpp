//===- InsertBarriers.cpp - fences and barriers for shared-memory hazards -===//

#include "Streams.h"

#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUINSERTBARRIERS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;

namespace {

/// What this thread has done to shared memory since the last barrier, and
/// since the last async-proxy fence.
struct Hazards {
  llvm::SmallDenseSet<Value> written; ///< by the generic proxy, not published
  llvm::SmallDenseSet<Value> read;    ///< by the generic proxy
  /// Written by the generic proxy and not fenced for the async proxy: a
  /// barrier publishes them to other threads' loads, not to a wgmma or TMA
  /// store, which still needs `fence.proxy.async` before its barrier.
  llvm::SmallDenseSet<Value> unfenced;
  bool empty() const { return written.empty() && read.empty(); }
  /// After a barrier (with the fence: `fenced`).
  void synchronized(bool fenced) {
    written.clear();
    read.clear();
    if (fenced)
      unfenced.clear();
  }
};

/// How an op touches shared memory: the buffers it writes now, starts
/// writing asynchronously (cp.async, TMA), finds written (an `async_wait`: the
/// copies it completes land there, and count as this thread's writes from
/// there on), reads in the generic proxy, and reads in the async proxy.
struct Access {
  SmallVector<Value> writes, asyncWrites, landed, reads, asyncReads;
};

/// The buffers a kernel's cp.async copies write and its wgmmas read: what
/// an `async_wait` may complete and a `dot_wait` may end the reads of, when
/// its token does not say (a token carried around a loop).
struct KernelBuffers {
  llvm::SmallSetVector<Value, 4> copied, dotRead;
  /// The TMA stores (what a `tma_store_wait` may end the reads of:
  /// tmaStoresBefore), and the place of each TMA store and wait in the text.
  SmallVector<TMAStoreOp> tmaStores;
  llvm::DenseMap<Operation *, unsigned> textOrder;
  /// Some op reads shared memory through the async proxy (wgmma, TMA
  /// store): then a barrier that publishes writes before an op with
  /// regions is fenced too, since what it publishes may be read that way
  /// after it. (sm_80 has no proxy fence, and needs none.)
  bool asyncReaders = false;
};

/// The buffers of the TMA stores that `wait` may complete: those before it,
/// and in a loop those of its body (the last iteration's).
static SmallVector<Value> tmaStoresBefore(Operation *wait, const KernelBuffers &kernel) {
  auto loop = wait->getParentOfType<scf::ForOp>();
  unsigned at = kernel.textOrder.lookup(wait);
  SmallVector<Value> buffers;
  for (TMAStoreOp store : kernel.tmaStores)
    if (kernel.textOrder.lookup(store) < at || (loop && loop->isAncestor(store)))
      buffers.push_back(rootBuffer(store.getSrc()));
  return buffers;
}

static Access accessOf(Operation *op, const KernelBuffers &kernel) {
  Access access;
  if (auto store = dyn_cast<LocalStoreOp>(op))
    access.writes.push_back(rootBuffer(store.getDst()));
  else if (auto copy = dyn_cast<AsyncCopyOp>(op))
    access.asyncWrites.push_back(rootBuffer(copy.getDst()));
  else if (auto copy = dyn_cast<TMALoadOp>(op))
    // Lands where its mbarrier's wait completes: each waiting thread sees
    // the bytes then, so only the overwrite of what others read is a hazard.
    access.asyncWrites.push_back(rootBuffer(copy.getDst()));
  else if (isa<AsyncWaitOp>(op))
    access.landed.append(kernel.copied.begin(), kernel.copied.end());
  else if (auto load = dyn_cast<LocalLoadOp>(op))
    access.reads.push_back(rootBuffer(load.getSrc()));
  else if (auto dot = dyn_cast<WarpgroupDotOp>(op))
    llvm::append_range(access.asyncReads, dotOperandBuffers(dot));
  else if (auto wait = dyn_cast<DotWaitOp>(op)) {
    // Until this wait the wgmma may read its operands; from here on the
    // reads are done for this thread, and another thread's write must wait
    // for every thread's (the next iteration overwriting a B buffer).
    for (Value token : wait.getTokens()) {
      if (auto dot = token.getDefiningOp<WarpgroupDotOp>())
        llvm::append_range(access.reads, dotOperandBuffers(dot));
      else
        access.reads.append(kernel.dotRead.begin(), kernel.dotRead.end());
    }
  } else if (auto store = dyn_cast<TMAStoreOp>(op)) {
    access.asyncReads.push_back(rootBuffer(store.getSrc()));
  } else if (isa<TMAStoreWaitOp>(op)) {
    // As a dot_wait: the stores' reads are done for this thread (the one
    // that issued them), and a write of another must wait for it.
    access.reads = tmaStoresBefore(op, kernel);
  }
  return access;
}

static KernelBuffers kernelBuffers(Operation *kernel) {
  KernelBuffers buffers;
  kernel->walk([&](Operation *op) {
    if (auto copy = dyn_cast<AsyncCopyOp>(op))
      buffers.copied.insert(rootBuffer(copy.getDst()));
    if (auto dot = dyn_cast<WarpgroupDotOp>(op))
      for (Value buffer : dotOperandBuffers(dot))
        buffers.dotRead.insert(buffer);
    if (auto store = dyn_cast<TMAStoreOp>(op))
      buffers.tmaStores.push_back(store);
    if (isa<TMAStoreOp, TMAStoreWaitOp>(op)) // no regions: visited in text order
      buffers.textOrder[op] = buffers.textOrder.size();
    buffers.asyncReaders |= isa<WarpgroupDotOp, TMAStoreOp>(op);
  });
  return buffers;
}

/// The buffers the ops in `block` (at any depth) write, in any way, and
/// read.
static std::pair<llvm::SmallDenseSet<Value>, llvm::SmallDenseSet<Value>>
touchedIn(Block &block, const KernelBuffers &kernel) {
  llvm::SmallDenseSet<Value> writes, reads;
  block.walk([&](Operation *op) {
    Access access = accessOf(op, kernel);
    for (Value b : llvm::concat<Value>(access.writes, access.asyncWrites, access.landed))
      writes.insert(b);
    for (Value b : llvm::concat<Value>(access.reads, access.asyncReads))
      reads.insert(b);
  });
  return {writes, reads};
}

/// Whether accesses that write `writes` and read `reads` meet what
/// `pending` has: a buffer read that they write, or one written that they
/// read or write.
static bool meets(const Hazards &pending, const llvm::SmallDenseSet<Value> &writes,
                  const llvm::SmallDenseSet<Value> &reads) {
  return llvm::any_of(pending.read, [&](Value b) { return writes.contains(b); }) ||
         llvm::any_of(pending.written,
                      [&](Value b) { return writes.contains(b) || reads.contains(b); });
}

/// A buffer of two slots that alternate with its loop's steps
/// (kAlternatingSlots).
static bool alternatesWithSteps(Value buffer) {
  Operation *alloc = buffer.getDefiningOp();
  return alloc && alloc->hasAttr(kAlternatingSlots);
}

/// Whether what an iteration of `body` leaves pending can meet the next
/// iteration's accesses. A step's reads of an alternating buffer's slot
/// cannot: the next step writes the other slot, and a barrier of the group
/// in that step orders the reads before the write two steps on.
static bool meetsNextIteration(const Hazards &pending, Block &body, const KernelBuffers &kernel) {
  auto [writes, reads] = touchedIn(body, kernel);
  Hazards carried = pending;
  // (Not where a wait in the body ends a dot of an earlier step, whose
  // slot would be the one the next step writes.)
  bool ownDots = !body.walk([&](DotWaitOp wait) {
                       for (Value token : wait.getTokens())
                         if (!token.getDefiningOp() ||
                             !body.getParentOp()->isAncestor(token.getDefiningOp()))
                           return WalkResult::interrupt();
                       return WalkResult::advance();
                     }).wasInterrupted();
  if (ownDots && llvm::any_of(body, [](Operation &op) { return isGroupBarrier(op); }))
    for (Value b : pending.read)
      if (alternatesWithSteps(b))
        carried.read.erase(b);
  return meets(carried, writes, reads);
}

/// The barrier id on which a role's first warp waits for its other warps'
/// writes (publishToFirstWarp): the last of the 16, clear of the roles' own
/// (1, 2, ...) and tilegpu-ping-pong's turns after them.
constexpr int32_t kFirstWarpBarrier = 15;

/// The buffers whose TMA stores `op` issues, where it is a branch of the
/// first warp that only issues TMA stores and waits for them.
static std::optional<SmallVector<Value>> storedByFirstWarp(Operation *op) {
  auto branch = dyn_cast_or_null<scf::IfOp>(op);
  if (!branch || !branch.getElseRegion().empty() || !streams::isFirstWarp(branch.getCondition()))
    return std::nullopt;
  SmallVector<Value> stored;
  WalkResult walk = branch.getThenRegion().walk([&](Operation *inner) {
    if (auto store = dyn_cast<TMAStoreOp>(inner))
      stored.push_back(rootBuffer(store.getSrc()));
    else if (!isa<TMAStoreWaitOp, scf::YieldOp>(inner))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || stored.empty())
    return std::nullopt;
  return stored;
}

/// Whether `op` is publishToFirstWarp's barrier: `bar.sync` on
/// kFirstWarpBarrier in the first warp, `bar.arrive` there in the others.
static bool isFirstWarpPublish(Operation &op) {
  auto branch = dyn_cast<scf::IfOp>(op);
  if (!branch || branch.getElseRegion().empty() || !streams::isFirstWarp(branch.getCondition()))
    return false;
  auto onBarrier = [](Block &block, auto kind) {
    for (Operation &inner : block)
      if (auto barrier = dyn_cast<decltype(kind)>(inner)) {
        APInt id;
        return matchPattern(barrier.getId(), m_ConstantInt(&id)) && id == kFirstWarpBarrier;
      }
    return false;
  };
  return onBarrier(branch.getThenRegion().front(), BarrierSyncOp()) &&
         onBarrier(branch.getElseRegion().front(), BarrierArriveOp());
}


/// Whether only reads are pending and the ops in `op`'s regions write no
/// shared memory.
static bool onlyReads(const Hazards &pending, Operation &op, const KernelBuffers &kernel) {
  if (!pending.written.empty())
    return false;
  for (Region &region : op.getRegions())
    for (Block &block : region)
      if (!touchedIn(block, kernel).first.empty())
        return false;
  return true;
}

class BarrierPlacer {
public:
  explicit BarrierPlacer(FunctionOpInterface kernel)
      : buffers(kernelBuffers(kernel)), splitStaging(kernel->hasAttr(tilec::kSplitStagingAttrName)) {
    if (!splitStaging) // (what publishToFirstWarp alone reads)
      return;
    kernel.walk([&](Operation *op) {
      Value id;
      if (auto sync = dyn_cast<BarrierSyncOp>(op))
        id = sync.getId();
      else if (auto arrive = dyn_cast<BarrierArriveOp>(op))
        id = arrive.getId();
      computedBarrierIds |= id && !matchPattern(id, m_Constant());
      if (auto load = dyn_cast<LocalLoadOp>(op))
        genericallyRead.insert(rootBuffer(load.getSrc()));
      if (auto dot = dyn_cast<WarpgroupDotOp>(op))
        for (Value b : dotOperandBuffers(dot))
          genericallyRead.insert(b);
    });
  }

  /// `canSync`: every thread of the group (block or role) runs `block`, so
  /// a barrier may go in it (not so in a branch).
  void placeIn(Block &block, Hazards &hazards, bool canSync) {
    for (Operation &op : llvm::make_early_inc_range(block)) {
      if (isGroupBarrier(op)) {
        hazards.synchronized(/*fenced=*/false);
        continue;
      }
      if (auto fence = dyn_cast<FenceOp>(op)) {
        if (fence.getKind() == FenceKind::async_proxy)
          hazards.unfenced.clear();
        continue;
      }
      if (op.getNumRegions()) {
        placeInRegions(op, hazards, canSync);
        continue;
      }
      Access access = accessOf(&op, buffers);
      // An async read of a buffer written since the last fence needs the
      // fence and a barrier, even where a barrier has published the write
      // to the generic proxy (a layout conversion's barrier between a
      // staged B operand's store and its wgmma).
      bool asyncHazard = llvm::any_of(access.asyncReads, [&](Value b) {
        return hazards.written.contains(b) || hazards.unfenced.contains(b);
      });
      bool hazard = asyncHazard ||
                    llvm::any_of(access.reads, [&](Value b) { return hazards.written.contains(b); }) ||
                    llvm::any_of(llvm::concat<Value>(access.writes, access.asyncWrites),
                                 [&](Value b) { return hazards.read.contains(b); });
      if (hazard && canSync)
        synchronize(&op, asyncHazard && !hazards.unfenced.empty(), hazards);
      for (Value b : llvm::concat<Value>(access.writes, access.landed)) {
        hazards.written.insert(b);
        hazards.unfenced.insert(b);
      }
      for (Value b : access.reads)
        if (!unwritten.contains(b) && !releasedByMBarrier(b))
          hazards.read.insert(b);
    }
  }

private:
  /// An op with regions starts them synchronized. A loop body or a warp
  /// role, which every thread of its group runs to the end, publishes what
  /// it leaves there (the next iteration, or the role's other threads, may
  /// read it) — a loop only when its next iteration touches those buffers,
  /// else right after it; a role's writes stay pending for the
  /// other roles, and a branch's (which may be a subset of the threads,
  /// where no barrier can go) for what follows.
  void placeInRegions(Operation &op, Hazards &hazards, bool canSync) {
    if (splitStaging && canSync && publishToFirstWarp(op, hazards))
      return;
    if (isa<scf::IfOp>(op) && onlyReads(hazards, op, buffers)) {
      // Where only reads are pending, a branch that writes nothing (a TMA
      // store's wait in the first warp) needs no barrier before it: it runs
      // with the hazards, which stay pending after it with its reads.
      Hazards after = hazards;
      for (Region &region : op.getRegions())
        for (Block &block : region) {
          Hazards pending = hazards;
          placeIn(block, pending, /*canSync=*/false);
          after.read.insert(pending.read.begin(), pending.read.end());
        }
      hazards = after;
      return;
    }
    // Before regions whose wgmma or TMA store reads a buffer written and
    // not fenced out here: fenced once here, not in every iteration.
    bool readsUnfenced = readsAsync(op, hazards.unfenced);
    if ((!hazards.empty() || readsUnfenced) && canSync)
      synchronize(&op,
                  readsUnfenced || (buffers.asyncReaders && !hazards.written.empty() &&
                                    !hazards.unfenced.empty()),
                  hazards);
    bool publishAtEnd = canSync && isa<scf::ForOp, WarpSpecializeOp>(op);
    bool inside = canSync && !isa<scf::IfOp>(op);
    Hazards after;
    after.unfenced = hazards.unfenced;
    for (Region &region : op.getRegions())
      for (Block &block : region) {
        Hazards pending = canSync ? Hazards() : hazards;
        llvm::SmallDenseSet<Value> outer = unwritten;
        if (isa<WarpSpecializeOp>(op))
          unwritten = unwrittenIn(block);
        placeIn(block, pending, inside);
        unwritten = std::move(outer);
        // A loop whose wgmma (or TMA store) reads what an iteration wrote
        // and did not fence: the body ends with the fence and a barrier.
        // Elsewhere what the block leaves unfenced stays so after it.
        if (publishAtEnd && isa<scf::ForOp>(op) && !block.empty() &&
            readsAsync(op, pending.unfenced)) {
          synchronizeAtEnd(block, /*fenceAsync=*/true);
          continue;
        }
        after.unfenced.insert(pending.unfenced.begin(), pending.unfenced.end());
        if (pending.empty())
          continue;
        if (publishAtEnd && isa<scf::ForOp>(op) && !meetsNextIteration(pending, block, buffers)) {
          // One barrier after the loop instead of one per iteration. (Not
          // carried on as pending: the allocator may give a buffer whose
          // last use is the loop to another one right after it, which the
          // hazards, kept per buffer, would not see.)
          Operation *next = op.getNextNode();
          while (next && isa<FenceOp, arith::ConstantOp>(next)) // a barrier's id
            next = next->getNextNode();
          if (next && isGroupBarrier(*next))
            continue; // already there (a second run of the pass)
          OpBuilder b(op.getContext());
          b.setInsertionPointAfter(&op);
          emitSync(b, op.getLoc(), &op,
                   buffers.asyncReaders && !pending.written.empty() && !pending.unfenced.empty());
          continue;
        }
        // The reads of TMA stores that a role's last wait leaves pending
        // meet nothing: its threads are done.
        bool storesDone = isa<WarpSpecializeOp>(op) && pending.written.empty() &&
                          llvm::all_of(pending.read, [&](Value b) {
                            return llvm::any_of(buffers.tmaStores, [&](TMAStoreOp store) {
                              return rootBuffer(store.getSrc()) == b;
                            });
                          });
        if (publishAtEnd && !block.empty() && !storesDone)
          synchronizeAtEnd(block, buffers.asyncReaders && !pending.written.empty() &&
                                      !pending.unfenced.empty());
        if (!publishAtEnd || isa<WarpSpecializeOp>(op))
          after.written.insert(pending.written.begin(), pending.written.end());
        if (!publishAtEnd)
          after.read.insert(pending.read.begin(), pending.read.end());
      }
    hazards = after;
  }

  /// A branch of the role's first warp that only issues TMA stores (and
  /// waits for them) of buffers written and not yet published: only that
  /// warp must wait for the writes. After the fence it waits on a barrier
  /// of its own (`bar.sync`) and the other warps arrive there
  /// (`bar.arrive`) and run on; what else is pending stays pending
  /// (kSplitStagingAttrName: the fused backward's dQ staging, whose full
  /// barrier also held each warpgroup until the other's dot had read dSᵀ —
  /// alternating slots take that over).
  bool publishToFirstWarp(Operation &op, Hazards &hazards) {
    if (isFirstWarpPublish(op)) { // placed by an earlier run: as placed now
      if (std::optional<SmallVector<Value>> stored = storedByFirstWarp(op.getNextNode()))
        for (Value buffer : *stored)
          hazards.written.erase(buffer);
      return true;
    }
    auto branch = dyn_cast<scf::IfOp>(op);
    std::optional<SmallVector<Value>> stored = storedByFirstWarp(&op);
    std::optional<WarpRole> role = enclosingRole(op);
    if (!stored || !role || !llvm::any_of(*stored, [&](Value b) {
          return hazards.written.contains(b) || hazards.unfenced.contains(b);
        }))
      return false;
    // Only where nothing else reads those buffers (their writes stay
    // unpublished to the other warps) and no barrier id is computed
    // (tilegpu-ping-pong's turns, which might reach kFirstWarpBarrier).
    if (llvm::any_of(*stored, [&](Value b) { return genericallyRead.contains(b); }) ||
        computedBarrierIds)
      return false;
    Location loc = op.getLoc();
    OpBuilder b(&op);
    FenceOp::create(b, loc, FenceKind::async_proxy);
    auto split = scf::IfOp::create(b, loc, TypeRange{}, branch.getCondition(), /*withElse=*/true);
    OpBuilder waits = OpBuilder::atBlockBegin(&split.getThenRegion().front());
    BarrierSyncOp::create(waits, loc, arith::ConstantIntOp::create(waits, loc, kFirstWarpBarrier, 32),
                          role->threads);
    OpBuilder arrives = OpBuilder::atBlockBegin(&split.getElseRegion().front());
    BarrierArriveOp::create(arrives, loc,
                            arith::ConstantIntOp::create(arrives, loc, kFirstWarpBarrier, 32),
                            role->threads);
    hazards.unfenced.clear(); // every thread ran the fence
    for (Value buffer : *stored)
      hazards.written.erase(buffer);
    // The branch's waits end its stores' reads, pending from here on.
    Hazards inBranch = hazards;
    placeIn(branch.getThenRegion().front(), inBranch, /*canSync=*/false);
    hazards.read.insert(inBranch.read.begin(), inBranch.read.end());
    return true;
  }

  void synchronize(Operation *before, bool fenceAsync, Hazards &hazards) {
    OpBuilder b(before);
    emitSync(b, before->getLoc(), before, fenceAsync);
    hazards.synchronized(fenceAsync);
  }

  /// Whether an op in `op`'s regions (any depth) reads one of `buffers`
  /// through the async proxy.
  bool readsAsync(Operation &op, const llvm::SmallDenseSet<Value> &buffers) const {
    if (buffers.empty())
      return false;
    bool found = false;
    op.walk([&](Operation *inner) {
      if (inner != &op)
        for (Value b : accessOf(inner, this->buffers).asyncReads)
          found |= buffers.contains(b);
    });
    return found;
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
    createGroupBarrier(b, loc, at);
  }

  /// The buffers a warp role reads but never writes (another role's TMA
  /// fills them, ordered by mbarriers): no thread of the role overwrites
  /// what another still reads, so their reads are no hazard in it.
  llvm::SmallDenseSet<Value> unwrittenIn(Block &role) {
    auto [writes, reads] = touchedIn(role, buffers);
    llvm::SmallDenseSet<Value> result;
    for (Value b : reads)
      if (!writes.contains(b))
        result.insert(b);
    return result;
  }

  KernelBuffers buffers;
  bool splitStaging; ///< the kernel has kSplitStagingAttrName
  /// Some named barrier's id is not a constant (known only with splitStaging).
  bool computedBarrierIds = false;
  /// Buffers read by a `local_load` or a wgmma (not only by TMA stores;
  /// collected only with splitStaging).
  llvm::SmallDenseSet<Value> genericallyRead;
  llvm::SmallDenseSet<Value> unwritten; ///< in the role being placed

  /// A ring whose overwrites wait for its readers on an mbarrier
  /// (kReleasedByMBarrier): its reads are no hazard for them.
  static bool releasedByMBarrier(Value buffer) {
    Operation *alloc = buffer.getDefiningOp();
    return alloc && alloc->hasAttr(kReleasedByMBarrier);
  }
};

struct TileGPUInsertBarriers
    : public tilec::tilegpu::impl::TileGPUInsertBarriersBase<TileGPUInsertBarriers> {
  void runOnOperation() override {
    for (Operation &op : getOperation().getBody()->getOperations())
      if (auto kernel = dyn_cast<FunctionOpInterface>(op); kernel && !kernel.isExternal()) {
        Hazards hazards;
        BarrierPlacer(kernel).placeIn(kernel.getFunctionBody().front(), hazards, /*canSync=*/true);
      }
  }
};

} // namespace
