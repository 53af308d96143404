//===- AllocateSharedMemory.cpp - offsets for shared buffers by liveness --===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
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

/// One buffer to place: the op that makes it, the ops of the kernel's body
/// during which it lives (inclusive), its size and alignment.
struct Buffer {
  Operation *op;
  int64_t first, last;
  int64_t bytes, alignment;
  std::optional<int64_t> offset;

  bool overlapsInTime(const Buffer &other) const {
    return first <= other.last && other.first <= last;
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
    DenseMap<Operation *, int64_t> position;
    for (auto [i, op] : llvm::enumerate(body))
      position[&op] = i;
    // The op of the kernel's body that is or holds `op`.
    auto positionOf = [&](Operation *op) { return position.lookup(body.findAncestorOpInBlock(*op)); };

    SmallVector<Buffer> buffers;
    kernel.walk([&](Operation *op) {
      Buffer buffer{op, positionOf(op), positionOf(op), 0, 8, std::nullopt};
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
      buffer.last = std::max(buffer.last, lastUse(op->getResult(0), positionOf));
      // An initialized mbarrier owns its bytes until the kernel ends: PTX
      // allows no other use of them (another barrier, a buffer) before an
      // mbarrier.inval, which nothing emits.
      if (isa<MBarrierCreateOp>(op))
        buffer.last = static_cast<int64_t>(body.getOperations().size());
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
          if (buffer.overlapsInTime(*other) && other->overlapsInSpace(start, buffer.bytes)) {
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
  }

  /// The last position at which `value`, or a view of it (a slot, or any
  /// shared buffer made from it), is used.
  template <typename PositionOf>
  static int64_t lastUse(Value value, PositionOf positionOf) {
    int64_t last = 0;
    SmallVector<Value> worklist{value};
    while (!worklist.empty()) {
      Value current = worklist.pop_back_val();
      for (Operation *user : current.getUsers()) {
        last = std::max(last, positionOf(user));
        for (Value result : user->getResults())
          if (isa<SharedMemoryType, MBarrierType>(result.getType()))
            worklist.push_back(result);
      }
    }
    return last;
  }
};

} // namespace
