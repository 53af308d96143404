//===- TMAStores.cpp - a kernel's closing block stores through TMA --------===//
//
// A block store at the end of a kernel (attention's O) otherwise leaves
// from registers: per thread, one predicated 4-byte store per pair of
// accumulator columns, each with its 64-bit address and bounds checks (at
// N = 1k, 17 % of the forward's warp time, bench/RESULTS.md session 21).
// Here it goes through shared memory instead, as in FlashAttention-3:
//
//   %buf = tilegpu.alloc : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>
//   tilegpu.local_store matrix %o, %buf          // stmatrix where it fits
//   (fence async_proxy and the group's barrier: tilegpu-insert-barriers)
//   scf.if <first warp of the group> {
//     tilegpu.tma_store %buf, %omap[%bh, %m, %c0]   // clipped at the edges
//     tilegpu.tma_store_wait {pending = 0}          // before the kernel ends
//   }
//
// A block atomic add in a loop (the fused backward's dQ share of each step)
// goes the same way with `tma_store add` (FlashAttention-3's dQ: one bulk
// reduction a step instead of one `red.global.add` per element and thread).
// An f32 tile may stage in 32-byte column blocks instead (the pass's
// f32-staging-bytes; see stagingType).
//
// In a warp-specialized persistent kernel whose shared memory has no room
// left for the buffer (Q on two slots at d = 128; d = 256), the tile's
// store may stage in a slot of one of the tile's own rings instead (the
// last V block's, or Q's): one the consumers are done with before the
// store and the producer refills only after it. That slot's "empty" arrival then
// moves behind the copy: the storing warp waits until the copy has read the
// slot and arrives (the barrier now counts that warp's threads), so the
// producer cannot overwrite O before it left.
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "tilec/Target/PTX.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/MapVector.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUTMASTORES
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::streams;
namespace tile = tilec::tile;

namespace {

constexpr int32_t kWarpThreads = 32;

/// A block store or a block atomic add: what the pass may send by TMA.
struct BlockWrite {
  Operation *op;
  Value desc, value;
  ValueRange offsets;
  bool add;
};

static std::optional<BlockWrite> blockWriteOf(Operation *op) {
  if (auto store = dyn_cast<tile::StoreBlockOp>(op))
    return BlockWrite{op, store.getDesc(), store.getValue(), store.getOffsets(), false};
  if (auto add = dyn_cast<tile::AtomicAddBlockOp>(op))
    return BlockWrite{op, add.getDesc(), add.getValue(), add.getOffsets(), true};
  return std::nullopt;
}

/// How one block write goes by TMA.
struct Plan {
  tile::MakeDescOp make;
  /// The written tile without its unit dimensions (rows x columns).
  Value tile;
  /// The buffer type that stages it.
  SharedMemoryType staging;
  llvm::SmallVector<int64_t> box;
  /// The warp role whose threads store (else the kernel's: all threads).
  std::optional<unsigned> role;
  /// The loop that runs the write once an iteration (directly in the
  /// kernel's or the role's body; a persistent kernel's tile loop, or the
  /// key loop of a fused backward's dQ adds), if it is in one.
  scf::ForOp loop;
  /// Where no buffer fits: the slot of a tile ring the write stages in
  /// (ringSlotFor), and the consumers' "empty" arrival on it that moves
  /// behind the copy.
  Value ringSlot;
  MBarrierArriveOp release;
};

/// The copy into a ring that the producer role of `roles` issues after
/// waiting on `empty` (tilegpu-pipeline-streams: wait "empty", announce,
/// copy into the slot), if any.
static TMALoadOp refillAfter(WarpSpecializeOp roles, Value empty) {
  TMALoadOp refill;
  roles.getRoles()[0].walk([&](MBarrierWaitOp wait) {
    if (wait.getBarriers() != empty || refill)
      return;
    for (Operation *op = wait->getNextNode(); op && !refill; op = op->getNextNode())
      refill = dyn_cast<TMALoadOp>(op);
  });
  return refill;
}

/// Whether the producer's `refill` of a slot of `slot`'s ring comes late
/// enough for the slot to hold a store's staging until its copy has read
/// it: on a ring of two or more slots (the refill is for a later tile than
/// the next), or after the tile's key loops (the last V block's). A
/// one-slot ring refilled at the tile's start (Q) would hold the next
/// tile's first copies back.
static bool refilledLate(TMALoadOp refill, SlotOp slot) {
  if (cast<SharedMemoryType>(slot.getBuffer().getType()).getShape().front() > 1)
    return true;
  for (Operation *op = refill->getPrevNode(); op; op = op->getPrevNode())
    if (isa<scf::ForOp>(op))
      return true;
  return false;
}

/// `arrive` is the consumers' only arrival on its barrier: once it moves
/// behind the store's copy (its count then the storing warp's), no other
/// arrival can complete the barrier's phase while the copy reads the slot.
static bool onlyConsumerArrival(WarpSpecializeOp roles, MBarrierArriveOp arrive) {
  int arrivals = 0;
  roles.getRoles()[1].walk([&](MBarrierArriveOp other) {
    arrivals += other.getBarriers() == arrive.getBarriers();
  });
  return arrivals == 1;
}

/// A slot of a tile ring of the warp-specialized persistent kernel that
/// `write` (in the consumers' tile loop `loop`) can stage `type` in: a slot
/// view of that type made in the loop's body from a ring the producer
/// refills after waiting on a barrier, on which the body arrives ("empty",
/// the ring's readers done) before `write`. Of those, the latest arrival
/// on a ring refilled late (refilledLate) wins (the last V block's ring:
/// the producer refills it only at the end of the next tile's copies);
/// else the latest of the others (Q's one slot at d = 256, where nothing
/// else has O's size: the next tile's Q then waits for O's copy, which
/// still beats storing O from registers and ending the program there:
/// session 47).
static std::optional<std::pair<Value, MBarrierArriveOp>>
ringSlotFor(Operation *write, scf::ForOp loop, SharedMemoryType type) {
  auto roles = dyn_cast<WarpSpecializeOp>(loop->getParentOp());
  if (!roles || roles.getRoles().size() != 2 || loop->getParentRegion() != &roles.getRoles()[1])
    return std::nullopt;
  Block *body = loop.getBody();
  std::optional<std::pair<Value, MBarrierArriveOp>> early;
  for (Operation *op = write->getPrevNode(); op; op = op->getPrevNode()) {
    auto arrive = dyn_cast<MBarrierArriveOp>(op);
    if (!arrive || arrive.getExpectTx() || !arrive.getBarriers().getDefiningOp<MBarrierCreateOp>() ||
        !onlyConsumerArrival(roles, arrive))
      continue;
    TMALoadOp refill = refillAfter(roles, arrive.getBarriers());
    auto refilled = refill ? refill.getDst().getDefiningOp<SlotOp>() : SlotOp();
    if (!refilled)
      continue;
    for (auto slot : body->getOps<SlotOp>()) {
      if (slot.getBuffer() != refilled.getBuffer() || slot.getIndex() != arrive.getIndex() ||
          slot.getType() != type)
        continue;
      if (refilledLate(refill, refilled))
        return std::pair{slot.getResult(), arrive};
      if (!early)
        early = std::pair{slot.getResult(), arrive};
    }
  }
  return early;
}

/// Whether a buffer of `bytes` surely fits beside every buffer the kernel
/// already has alive at once; in a loop everything may be (the allocator's
/// live ranges do not end inside it), so all of them count, each rounded
/// up to the 1024-byte alignment of a swizzled buffer; but of consecutive
/// loops of one block only the one that needs most (the allocator lets
/// their buffers share bytes: the fused backward's three key loops, in a
/// persistent kernel's tile loop too, whose body it also measures live
/// ranges in).
static bool fitsBesideAll(FunctionOpInterface kernel, int64_t bytes) {
  int64_t total = llvm::alignTo(bytes, 1024);
  // The bytes of each outermost loop's buffers, and the most of them by
  // the block that holds the loops.
  llvm::MapVector<Operation *, int64_t> inLoop;
  kernel.walk([&](Operation *op) {
    int64_t size = 0;
    if (auto alloc = dyn_cast<AllocOp>(op))
      size = llvm::alignTo(alloc.getType().getSizeInBytes(), 1024);
    else if (auto barriers = dyn_cast<MBarrierCreateOp>(op))
      size = 8 * int64_t{barriers.getType().getCount()};
    else
      return;
    scf::ForOp outermost;
    for (auto loop = op->getParentOfType<scf::ForOp>(); loop;
         loop = loop->getParentOfType<scf::ForOp>())
      if (!tileLoopBody(*loop))
        outermost = loop;
    if (outermost)
      inLoop[outermost] += size;
    else
      total += size;
  });
  llvm::DenseMap<Block *, int64_t> mostByBlock;
  for (auto [loop, size] : inLoop)
    mostByBlock[loop->getBlock()] = std::max(mostByBlock[loop->getBlock()], size);
  for (auto [block, size] : mostByBlock)
    total += size;
  return total <= tilec::maxSharedBytesPerBlock("sm_90a"); // TMA: sm_90a
}

/// The staging buffers made for writes in loops, by descriptor and type:
/// the writes of one descriptor in consecutive loops of a block (the fused
/// backward's three key loops) share one, moved before the first loop (each
/// loop waits for its last copy after it).
using StagingBuffers = llvm::DenseMap<std::pair<Operation *, Type>, Value>;

/// The swizzled buffer type that stages `tile`: column blocks of 128
/// bytes, or of `f32Bytes` for f32 (the pass's f32-staging-bytes). 32
/// there: a warp stores an accumulator's column pairs (8 bytes a lane) in
/// two phases of 16 lanes, four rows each; in 128-byte rows those four
/// rows' pairs fall on 64 bytes of banks even with the 128-byte swizzle
/// (two wavefronts a phase), in 32-byte rows they fill all 128 (the fused
/// backward's dQ stores: 4 wavefronts a store where 2 would do, ncu,
/// session 49). 16-bit tiles keep 128 (stmatrix's rows spread by it).
static SharedMemoryType stagingType(Value tile, unsigned f32Bytes) {
  auto type = cast<RankedTensorType>(tile.getType());
  unsigned bytes = type.getElementType().isF32() ? f32Bytes : 128;
  return SharedMemoryType::get(tile.getContext(), type.getShape(), type.getElementType(),
                               SwizzledAttr::get(tile.getContext(), bytes));
}

/// The column-block bytes of a staging buffer (its swizzle, and the TMA
/// box's row).
static unsigned spanOf(SharedMemoryType staging) {
  return cast<SwizzledAttr>(staging.getEncoding()).getBytes();
}

/// The key of `make`'s writes staged in `staging` in StagingBuffers.
static std::pair<Operation *, Type> stagingKey(tile::MakeDescOp make, SharedMemoryType staging) {
  return {make.getOperation(), staging};
}

/// The buffer of type `staging` that `buffers` has for `make`'s writes made
/// in the block of `loop` (before it, or in an earlier loop there), if any.
static Value existingBuffer(const StagingBuffers &buffers, tile::MakeDescOp make,
                            SharedMemoryType staging, scf::ForOp loop) {
  Value buffer = buffers.lookup(stagingKey(make, staging));
  return buffer && loop->getBlock()->findAncestorOpInBlock(*buffer.getDefiningOp()) ? buffer
                                                                                    : Value();
}

/// The TMA box of a block of `desc`: one column block of `span` bytes of
/// its rows at a time.
static llvm::SmallVector<int64_t> box(tile::TensorDescType desc, int64_t elementBytes,
                                      unsigned span) {
  llvm::SmallVector<int64_t> box(desc.getBlockShape());
  box.back() = span / elementBytes;
  return box;
}

/// Whether `write` goes by TMA, and how: a write of a whole 2-D tile
/// (unit dimensions aside) whose rows are whole 128-byte column blocks,
/// through a descriptor of a tensor argument as the runtime passes it, run
/// once by every thread of the kernel or of a warp role (directly in its
/// body, or directly in a loop there or in a persistent kernel's tile loop
/// there when the buffer surely fits beside all others, or shares one of
/// `buffers`, or stages in a tile ring's slot: ringSlotFor; not in a
/// branch). An add needs f32, f16 or bf16 elements.
static std::optional<Plan> planOf(const BlockWrite &write, FunctionOpInterface kernel,
                                  const StagingBuffers &buffers, unsigned f32Bytes) {
  Operation *parent = write.op->getParentOp();
  scf::ForOp loop = dyn_cast<scf::ForOp>(parent);
  if (loop) {
    parent = loop->getParentOp();
    // A loop in a persistent kernel's tile loop (the fused backward's key
    // loops): its writes go as in a loop of the kernel's or role's body.
    if (auto tiles = dyn_cast<scf::ForOp>(parent); tiles && tileLoopBody(*tiles))
      parent = tiles->getParentOp();
  }
  std::optional<unsigned> role;
  if (isa<WarpSpecializeOp>(parent) && parent->getParentOp() == kernel.getOperation()) {
    Operation *inRole = write.op;
    while (inRole->getParentOp() != parent)
      inRole = inRole->getParentOp();
    role = inRole->getParentRegion()->getRegionNumber();
  }
  if (parent != kernel.getOperation() && !role)
    return std::nullopt;
  auto make = write.desc.getDefiningOp<tile::MakeDescOp>();
  if (!make || !describesItsArgument(make) ||
      llvm::any_of(write.offsets, [](Value v) { return !v.getType().isInteger(32); }))
    return std::nullopt;

  tile::TensorDescType desc = make.getType();
  llvm::SmallVector<int64_t> shape = withoutUnitDims(desc.getBlockShape());
  Value tile = write.value;
  if (auto reshape = tile.getDefiningOp<tile::ReshapeOp>())
    tile = reshape.getSrc();
  auto type = cast<RankedTensorType>(tile.getType());
  if (shape.size() != 2 || type.getShape() != ArrayRef<int64_t>(shape) || !type.getEncoding())
    return std::nullopt;

  Type element = desc.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  if (write.add && !element.isF32() && !element.isF16() && !element.isBF16())
    return std::nullopt;
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  if (shape[1] * elementBytes % 128 || shape[0] > 256)
    return std::nullopt;
  SharedMemoryType staging = stagingType(tile, f32Bytes);
  Plan plan{make, tile, staging, box(desc, elementBytes, spanOf(staging)), role, loop, Value(),
            MBarrierArriveOp()};
  if (loop && !existingBuffer(buffers, make, staging, loop) &&
      !fitsBesideAll(kernel, shape[0] * shape[1] * elementBytes)) {
    std::optional<std::pair<Value, MBarrierArriveOp>> slot =
        write.add ? std::nullopt : ringSlotFor(write.op, loop, staging);
    if (!slot)
      return std::nullopt;
    std::tie(plan.ringSlot, plan.release) = *slot;
  }
  return plan;
}

/// `body` run by the first warp of the group only (firstWarp).
static void inFirstWarp(OpBuilder &b, Location loc, llvm::function_ref<void(OpBuilder &)> body) {
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, streams::firstWarp(b, loc),
                                  /*withElseRegion=*/false);
  OpBuilder inside = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
  body(inside);
}

/// In a loop the buffer is written again an iteration later: before that,
/// the storing warp waits until the last iteration's copy has read it, and a
/// barrier of the group holds the other threads until then. The wait goes
/// just before the last barrier of the group that the loop body already
/// has ahead of `write` (as late as possible: the copy runs meanwhile).
/// Without one it goes before the body's first shared store ahead of
/// `write` (else before `write`), and tilegpu-insert-barriers puts a
/// barrier between it and `write` where none falls (the fused backward's
/// dQ: the one that publishes dSᵀ). After the loop, the last copy is
/// waited for.
static void waitForLastIteration(Operation *write, const Plan &plan) {
  Location loc = write->getLoc();
  Operation *barrier = nullptr;
  for (Operation *op = write->getPrevNode(); op && !barrier; op = op->getPrevNode())
    if (isGroupBarrier(*op))
      barrier = op;
  Operation *at = barrier;
  if (!at)
    for (Operation &op : *write->getBlock()) {
      if (&op == write || isa<LocalStoreOp>(op)) {
        at = &op;
        break;
      }
    }
  OpBuilder b(at);
  inFirstWarp(b, loc, [&](OpBuilder &inside) { TMAStoreWaitOp::create(inside, loc, 0); });
  OpBuilder after(plan.loop->getContext());
  after.setInsertionPointAfter(plan.loop);
  inFirstWarp(after, loc, [&](OpBuilder &inside) { TMAStoreWaitOp::create(inside, loc, 0); });
}

/// A buffer for `plan`'s tile, made at `write`; in a loop whose block
/// has one for it already (an earlier loop's), that one, moved out of that
/// loop.
static Value stagingBuffer(Operation *write, const Plan &plan, StagingBuffers &buffers) {
  if (plan.loop)
    if (Value buffer = existingBuffer(buffers, plan.make, plan.staging, plan.loop)) {
      Operation *alloc = buffer.getDefiningOp();
      if (alloc->getBlock() != plan.loop->getBlock())
        alloc->moveBefore(plan.loop->getBlock()->findAncestorOpInBlock(*alloc));
      return buffer;
    }
  OpBuilder b(write);
  Value buffer = AllocOp::create(b, write->getLoc(), plan.staging, IntegerAttr());
  if (plan.loop)
    buffers[stagingKey(plan.make, plan.staging)] = buffer;
  return buffer;
}

static void writeByTMA(const BlockWrite &write, const Plan &plan, TensorMaps &maps,
                       StagingBuffers &buffers) {
  Location loc = write.op->getLoc();
  OpBuilder b(write.op);
  if (plan.loop)
    waitForLastIteration(write.op, plan);
  else if (plan.role)
    // The role's threads stop reading what they have read (Q) before the
    // stores: only across a barrier of the role may the staging buffer take
    // those bytes (tilegpu-allocate-shared-memory).
    createGroupBarrier(b, loc, write.op);
  Value map =
      maps.get(plan.make, plan.box, SwizzledAttr::get(b.getContext(), spanOf(plan.staging)), loc);
  if (plan.ringSlot)
    // Every consumer is done reading the slot (its last wgmma waited)
    // before any writes O into it.
    createGroupBarrier(b, loc, write.op);
  Value buffer = plan.ringSlot ? plan.ringSlot : stagingBuffer(write.op, plan, buffers);
  // By stmatrix where the tile's layout allows (16-bit wgmma or mma
  // accumulators: O, dK, dV): a quarter of the store instructions and
  // their addresses.
  bool byMatrix = fitsStMatrix(cast<RankedTensorType>(plan.tile.getType()),
                               cast<SharedMemoryType>(buffer.getType()));
  LocalStoreOp::create(b, loc, plan.tile, buffer, byMatrix ? b.getUnitAttr() : UnitAttr());
  inFirstWarp(b, loc, [&](OpBuilder &inside) {
    TMAStoreOp::create(inside, loc, buffer, map, write.offsets, write.add);
    // Outside a loop the kernel (or role) ends soon: wait here.
    if (!plan.loop)
      TMAStoreWaitOp::create(inside, loc, 0);
    if (plan.ringSlot) {
      // The slot is free for the producer once the copy has read it: this
      // warp's arrivals (the lane that issued the copy waits for it) are
      // all the ring's "empty" barrier counts now.
      TMAStoreWaitOp::create(inside, loc, 0);
      MBarrierArriveOp release = plan.release;
      MBarrierArriveOp::create(inside, loc, release.getBarriers(), release.getIndex(),
                               IntegerAttr());
    }
  });
  if (plan.ringSlot) {
    MBarrierArriveOp release = plan.release;
    release.getBarriers().getDefiningOp<MBarrierCreateOp>().setArrivals(kWarpThreads);
    release.erase();
  }
  write.op->erase();
  if (auto reshape = write.value.getDefiningOp<tile::ReshapeOp>(); reshape && reshape->use_empty())
    reshape.erase();
}

struct TileGPUTMAStores : public tilec::tilegpu::impl::TileGPUTMAStoresBase<TileGPUTMAStores> {
  using Base::Base;
  void runOnOperation() override {
    if (f32StagingBytes != 128 && f32StagingBytes != 32) {
      getOperation().emitError("tilegpu-tma-stores: f32-staging-bytes must be 128 or 32, got ")
          << static_cast<int64_t>(f32StagingBytes);
      return signalPassFailure();
    }
    for (Operation &op : getOperation().getBody()->getOperations()) {
      auto kernel = dyn_cast<FunctionOpInterface>(op);
      if (!kernel || kernel.isExternal() || !kernel->hasAttr(kKernelAttrName))
        continue;
      SmallVector<BlockWrite> writes;
      kernel.walk([&](Operation *op) {
        if (std::optional<BlockWrite> write = blockWriteOf(op))
          writes.push_back(*write);
      });
      TensorMaps maps(kernel);
      StagingBuffers buffers;
      llvm::SmallSetVector<int64_t, 4> aligned;
      if (auto previous = kernel->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
        aligned.insert(previous.asArrayRef().begin(), previous.asArrayRef().end());
      bool changed = false;
      // One at a time: a write's plan counts the buffers of those before it.
      for (const BlockWrite &write : writes) {
        std::optional<Plan> plan = planOf(write, kernel, buffers, f32StagingBytes);
        if (!plan)
          continue;
        aligned.insert(cast<BlockArgument>(plan->make.getBase()).getArgNumber());
        writeByTMA(write, *plan, maps, buffers);
        changed = true;
      }
      if (!changed)
        continue;
      SmallVector<int64_t> sorted(aligned.begin(), aligned.end());
      llvm::sort(sorted);
      kernel->setAttr("tilec.aligned_args", DenseI64ArrayAttr::get(&getContext(), sorted));
    }
  }
};

} // namespace
