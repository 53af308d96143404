//===- AllocateSharedMemory.cpp - offsets for shared buffers by liveness --===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUALLOCATESHAREDMEMORY
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;

namespace {

/// 1024 bytes for swizzled buffers (wgmma descriptors and TMA read and
/// write whole swizzle patterns), 128 for unpadded rows (a TMA box without
/// swizzle may write them), 16 for padded rows.
int64_t alignmentOf(SharedMemoryType type) {
  if (isa<SwizzledAttr>(type.getEncoding()))
    return 1024;
  auto padded = dyn_cast<PaddedAttr>(type.getEncoding());
  return padded && padded.getBytes() == 0 ? 128 : 16;
}

/// The blocks whose ops each thread runs in sequence and where a buffer's
/// live range is measured: the kernel's body, and the body of each role of
/// a `warp_specialize` in it (the roles run side by side, so buffers of two
/// roles meet in the body, at the `warp_specialize`); in a persistent
/// kernel also the body of the tile loop in each of those (an scf.for or
/// the scf.while of tilegpu-claim-tiles), whose iterations are tiles: a
/// buffer used within one tile may then share bytes with another of the
/// same tile. A use nested deeper (in a loop, a branch) counts at the op of
/// such a block that holds it.
class Timeline {
public:
  explicit Timeline(Block &body) : bodyBlock(body) {
    SmallVector<Block *> outer{&body};
    for (Operation &op : body)
      if (auto roles = dyn_cast<WarpSpecializeOp>(op))
        for (Region &role : roles->getRegions())
          for (Block &block : role)
            outer.push_back(&block);
    for (Block *block : outer) {
      number(*block);
      for (Operation &op : *block)
        if (Block *tiles = tileLoopBody(op)) {
          number(*tiles);
          loopBodies.insert(tiles);
        }
    }
  }

  /// The innermost such block that holds `op`.
  Block *blockOf(Operation *op) const {
    Block *block = op->getBlock();
    while (!positions.count(block))
      block = block->getParentOp()->getBlock();
    return block;
  }
  /// The innermost such block that holds `block` and `other` (or is one).
  Block *commonBlock(Block *block, Block *other) const {
    llvm::SmallPtrSet<Block *, 4> holders;
    for (Block *b = other; b; b = holderOf(b))
      holders.insert(b);
    while (!holders.count(block))
      block = holderOf(block);
    return block;
  }
  /// The position in `block` of the op that is or holds `op`.
  int64_t positionIn(Block *block, Operation *op) const {
    return positions.lookup(block).lookup(block->findAncestorOpInBlock(*op));
  }
  bool isBody(Block *block) const { return block == &bodyBlock; }
  /// Whether `block` is a tile loop's body (its end goes on to its start).
  bool isLoopBody(Block *block) const { return loopBodies.contains(block); }
  /// The block a tile loop's body is in; null for the others.
  Block *loopHolder(Block *block) const { return isLoopBody(block) ? holderOf(block) : nullptr; }
  int64_t size(Block *block) const { return static_cast<int64_t>(block->getOperations().size()); }
  Block *body() const { return &bodyBlock; }
  /// Whether an op of `block` after position `from` and before `to` waits
  /// for every thread of its group (isGroupBarrier).
  bool barrierBetween(Block *block, int64_t from, int64_t to) const {
    auto found = barriers.find(block);
    if (found == barriers.end())
      return false;
    auto next = llvm::upper_bound(found->second, from);
    return next != found->second.end() && *next < to;
  }

private:
  /// The numbered block holding `block`'s op; null for the kernel's body.
  Block *holderOf(Block *block) const {
    return isBody(block) ? nullptr : blockOf(block->getParentOp());
  }
  void number(Block &block) {
    for (auto [i, op] : llvm::enumerate(block)) {
      positions[&block][&op] = static_cast<int64_t>(i);
      if (isGroupBarrier(op))
        barriers[&block].push_back(static_cast<int64_t>(i));
    }
  }
  Block &bodyBlock;
  DenseMap<Block *, DenseMap<Operation *, int64_t>> positions;
  /// The positions of each block's isGroupBarrier ops, in order.
  DenseMap<Block *, SmallVector<int64_t>> barriers;
  llvm::SmallPtrSet<Block *, 4> loopBodies;
};

/// Whether every thread of `block`'s group waits for every other between
/// positions `from` and `to` of it: a group barrier there, or the op at
/// `from` a loop whose body ends with one (insert-barriers publishes a
/// loop's accesses there).
bool synchronizedBetween(Block *block, int64_t from, int64_t to, const Timeline &timeline) {
  if (timeline.barrierBetween(block, from, to))
    return true;
  if (from < 0 || from >= timeline.size(block))
    return false;
  auto loop = dyn_cast<scf::ForOp>(*std::next(block->begin(), from));
  if (!loop)
    return false;
  Operation *terminator = loop.getBody()->getTerminator();
  Operation *last = terminator->getPrevNode();
  return last && isGroupBarrier(*last);
}

/// One buffer to place: the op that makes it, the ops of its Timeline block
/// during which it lives (inclusive), its size and alignment.
struct Buffer {
  Operation *op;
  Block *block;
  int64_t first, last;
  int64_t bytes, alignment;
  std::optional<int64_t> offset;

  /// The live range in `block` (which holds this one's): the position of
  /// the op there that holds this one's block (a warp_specialize, a loop).
  std::pair<int64_t, int64_t> rangeIn(Block *block, const Timeline &timeline) const {
    if (block == this->block)
      return {first, last};
    int64_t at = timeline.positionIn(block, this->block->getParentOp());
    return {at, at};
  }

  /// Whether the two may need their bytes at the same time: their ranges
  /// meet in the innermost block holding both; or, in a role's block,
  /// nothing between them waits for every thread of the role (the earlier
  /// one's last readers may be behind the later one's first writers): no
  /// barrier, and the earlier one's last use no loop whose body ends with
  /// one (the step buffers of consecutive loops share bytes). In a tile
  /// loop's body the same, and also around its back edge: from the later
  /// one's last use through the body's end and start to the earlier one's
  /// first use (the next tile's). In the kernel's body ranges apart
  /// suffice, as they always have there: tilegpu-insert-barriers publishes
  /// a loop's pending accesses at the end of its body or right after it.
  /// (Asking for a barrier there too cost the sliding window's dK/dV 33 KiB
  /// over the limit.)
  bool overlapsInTime(const Buffer &other, const Timeline &timeline) const {
    Block *common = timeline.commonBlock(block, other.block);
    auto [first, last] = rangeIn(common, timeline);
    auto [otherFirst, otherLast] = other.rangeIn(common, timeline);
    if (first <= otherLast && otherFirst <= last)
      return true;
    if (timeline.isBody(common))
      return false;
    auto [earlierFirst, earlierLast] = last < otherFirst ? std::pair(first, last)
                                                         : std::pair(otherFirst, otherLast);
    auto [laterFirst, laterLast] = last < otherFirst ? std::pair(otherFirst, otherLast)
                                                     : std::pair(first, last);
    if (!synchronizedBetween(common, earlierLast, laterFirst, timeline))
      return true;
    return timeline.isLoopBody(common) &&
           !synchronizedBetween(common, laterLast, timeline.size(common), timeline) &&
           !timeline.barrierBetween(common, -1, earlierFirst);
  }
  bool overlapsInSpace(int64_t start, int64_t size) const {
    return *offset < start + size && start < *offset + bytes;
  }
};

struct TileGPUAllocateSharedMemory
    : public tilec::tilegpu::impl::TileGPUAllocateSharedMemoryBase<TileGPUAllocateSharedMemory> {
  void runOnOperation() override {
    for (Operation &op : getOperation().getBody()->getOperations())
      if (auto kernel = dyn_cast<FunctionOpInterface>(op); kernel && !kernel.isExternal())
        allocate(kernel);
  }

  static void allocate(FunctionOpInterface kernel) {
    Block &body = kernel.getFunctionBody().front();
    Timeline timeline(body);

    SmallVector<Buffer> buffers;
    kernel.walk([&](Operation *op) {
      if (!isa<AllocOp, MBarrierCreateOp>(op))
        return;
      Block *block = timeline.blockOf(op);
      int64_t at = timeline.positionIn(block, op);
      Buffer buffer{op, block, at, at, 0, 8, std::nullopt};
      IntegerAttr offset;
      if (auto alloc = dyn_cast<AllocOp>(op)) {
        SharedMemoryType type = alloc.getType();
        buffer.bytes = type.getSizeInBytes();
        buffer.alignment = alignmentOf(type);
        offset = alloc.getOffsetAttr();
      } else if (auto barriers = dyn_cast<MBarrierCreateOp>(op)) {
        buffer.bytes = 8 * int64_t{barriers.getType().getCount()};
        offset = barriers.getOffsetAttr();
      } else {
        return;
      }
      if (offset)
        buffer.offset = offset.getInt();
      if (Block *reader = readerOfOnceFilled(op, timeline)) {
        // Live from the start (the copy may land any time before the
        // reader's wait) to the reader's last use.
        buffer.block = reader;
        buffer.first = 0;
        block = reader;
      }
      buffer.last = std::max(buffer.last, lastUse(op->getResult(0), block, timeline));
      // In a tile loop's body, one the next tile may still need — the body
      // yields it (a view, a wgmma's token), or a TMA store reads it (its
      // wait may come in the next tile) — lives through the whole body.
      if (timeline.isLoopBody(block) && buffer.last >= timeline.size(block) - 1) {
        buffer.first = 0;
        buffer.last = timeline.size(block);
      }
      // An initialized mbarrier owns its bytes until the kernel ends: PTX
      // allows no other use of them (another barrier, a buffer) before an
      // mbarrier.inval, which nothing emits.
      if (isa<MBarrierCreateOp>(op)) {
        while (Block *holder = timeline.loopHolder(buffer.block)) {
          buffer.first = timeline.positionIn(holder, op);
          buffer.block = holder;
        }
        buffer.last = timeline.size(buffer.block);
      }
      buffers.push_back(buffer);
    });

    // Offsets already set are reserved first; the rest go first fit, in
    // program order, among the buffers alive at the same time.
    SmallVector<Buffer *> placed;
    for (Buffer &buffer : buffers)
      if (buffer.offset)
        placed.push_back(&buffer);
    int64_t total = 0;
    for (Buffer *buffer : placed)
      total = std::max(total, *buffer->offset + buffer->bytes);
    OpBuilder b(kernel.getContext());
    for (Buffer &buffer : buffers) {
      if (buffer.offset)
        continue;
      int64_t start = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (Buffer *other : placed)
          if (other->overlapsInSpace(start, buffer.bytes) &&
              buffer.overlapsInTime(*other, timeline)) {
            start = llvm::alignTo(*other->offset + other->bytes, buffer.alignment);
            moved = true;
          }
      }
      buffer.offset = start;
      buffer.op->setAttr("offset", b.getI64IntegerAttr(start));
      placed.push_back(&buffer);
      total = std::max(total, start + buffer.bytes);
    }
    kernel->setAttr("tilegpu.shared_bytes", b.getI64IntegerAttr(total));
    separateReuses(buffers, timeline);
  }

  /// In the kernel's body a buffer may take bytes another left without a
  /// barrier between (overlapsInTime): one thread's writes of the new one
  /// may then land while another thread still reads the old one (session
  /// 30: the row groups' O staging over the last P·V's A operand). A
  /// group barrier goes before the new one where nothing between waits
  /// for every thread: no barrier op in the body, and no loop whose body
  /// ends with one.
  static void separateReuses(ArrayRef<Buffer> buffers, const Timeline &timeline) {
    Block *body = timeline.body();
    llvm::SetVector<Operation *> separated;
    for (const Buffer &later : buffers) {
      if (later.block != body || !isa<AllocOp>(later.op))
        continue;
      for (const Buffer &earlier : buffers)
        if (&earlier != &later && earlier.block == body && earlier.last < later.first &&
            isa<AllocOp>(earlier.op) && later.overlapsInSpace(*earlier.offset, earlier.bytes) &&
            !synchronizedBetween(body, earlier.last, later.first, timeline))
          separated.insert(&*std::next(body->begin(), later.first));
    }
    for (Operation *op : separated) {
      OpBuilder b(op);
      createGroupBarrier(b, op->getLoc(), op);
    }
  }

  /// For a buffer made in the kernel's body that one warp role fills once
  /// by TMA (its copy in no loop: a program's Q, from the producer) and
  /// one other role uses: that role's block, where it then
  /// lives as if it were its own, from the role's start (the copy lands
  /// when it lands, before the role's wait on its mbarrier) to its last use
  /// there, after which nothing writes it again. Null for any other.
  static Block *readerOfOnceFilled(Operation *op, const Timeline &timeline) {
    if (!isa<AllocOp>(op) || !timeline.isBody(op->getBlock()))
      return nullptr;
    Block *filler = nullptr, *reader = nullptr;
    for (Operation *user : op->getUsers()) {
      Block *role = timeline.blockOf(user);
      if (timeline.isBody(role))
        return nullptr;
      auto slot = dyn_cast<SlotOp>(user);
      bool onceCopied =
          slot && llvm::all_of(slot->getUsers(), [&](Operation *copy) {
            auto tma = dyn_cast<TMALoadOp>(copy);
            return tma && tma.getDst() == slot.getResult() && !copy->getParentOfType<scf::ForOp>();
          });
      Block *&side = onceCopied ? filler : reader;
      if (side && side != role)
        return nullptr;
      side = role;
    }
    return filler && reader && filler != reader ? reader : nullptr;
  }

  /// The last position in `block` at which `value`, or a view of it (a
  /// slot, or any shared buffer made from it), is used — or still read: a
  /// wgmma reads its operands until the `dot_wait` of its token, a TMA
  /// store its source until a `tma_store_wait` (taken as the block's end).
  static int64_t lastUse(Value value, Block *block, const Timeline &timeline) {
    int64_t last = 0;
    SmallVector<Value> worklist{value};
    llvm::SmallPtrSet<Value, 8> seen;
    while (!worklist.empty()) {
      Value current = worklist.pop_back_val();
      if (!seen.insert(current).second)
        continue;
      for (Operation *user : current.getUsers()) {
        last = std::max(last, timeline.positionIn(block, user));
        if (isa<TMAStoreOp>(user))
          last = timeline.size(block);
        for (Value result : user->getResults())
          if (isa<SharedMemoryType, MBarrierType, DotTokenType>(result.getType()))
            worklist.push_back(result);
        // A token carried by a loop: its results after the loop.
        if (user->hasTrait<OpTrait::IsTerminator>() && isa<DotTokenType>(current.getType()))
          for (Value result : user->getParentOp()->getResults())
            if (isa<DotTokenType>(result.getType()))
              worklist.push_back(result);
      }
    }
    return last;
  }
};

} // namespace
