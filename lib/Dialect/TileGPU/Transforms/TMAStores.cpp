//===- TMAStores.cpp - a kernel's closing block stores through TMA --------===//
//
// A block store at the end of a kernel (attention's O) otherwise leaves
// from registers: per thread, one predicated 4-byte store per pair of
// accumulator columns, each with its 64-bit address and bounds checks (at
// N = 1k, 17 % of the forward's warp time, bench/RESULTS.md session 21).
// Here it goes through shared memory instead, as in FlashAttention-3:
//
//   %buf = tilegpu.alloc : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>
//   tilegpu.local_store %o, %buf
//   (fence async_proxy and the group's barrier: tilegpu-insert-barriers)
//   scf.if <first warp of the group> {
//     tilegpu.tma_store %buf, %omap[%bh, %m, %c0]   // clipped at the edges
//     tilegpu.tma_store_wait {pending = 0}          // before the kernel ends
//   }
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "tilec/Target/PTX.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUTMASTORES
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::streams;
namespace tile = tilec::tile;

namespace {

/// How one block store goes by TMA.
struct Plan {
  tile::MakeDescOp make;
  /// The stored tile without its unit dimensions (rows x columns).
  Value tile;
  llvm::SmallVector<int64_t> box;
  /// The warp role whose threads store (else the kernel's: all threads).
  std::optional<unsigned> role;
  /// The loop over a persistent kernel's tiles that runs the store once a
  /// tile (directly in the kernel's or the role's body), if it is in one.
  scf::ForOp tileLoop;
};

/// Whether a buffer of `bytes` surely fits beside every buffer the kernel
/// already has alive at once; in a tile loop everything may be (the
/// allocator's live ranges do not end inside it), so all of them count,
/// each rounded up to the 1024-byte alignment of a swizzled buffer.
static bool fitsBesideAll(FunctionOpInterface kernel, int64_t bytes) {
  int64_t total = llvm::alignTo(bytes, 1024);
  kernel.walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocOp>(op))
      total += llvm::alignTo(alloc.getType().getSizeInBytes(), 1024);
    else if (auto barriers = dyn_cast<MBarrierCreateOp>(op))
      total += 8 * int64_t{barriers.getType().getCount()};
  });
  return total <= tilec::maxSharedBytesPerBlock("sm_90a"); // TMA: sm_90a
}

/// Whether `store` ends up by TMA, and how: a store of a whole 2-D tile
/// (unit dimensions aside) whose rows are whole 128-byte column blocks,
/// through a descriptor of a tensor argument as the runtime passes it, run
/// once by every thread of the kernel or of a warp role (directly in its
/// body, or directly in a loop there — a persistent kernel's tile loop —
/// when the buffer surely fits beside all others; not in a branch).
static std::optional<Plan> planOf(tile::StoreBlockOp store, FunctionOpInterface kernel) {
  Operation *parent = store->getParentOp();
  scf::ForOp tileLoop = dyn_cast<scf::ForOp>(parent);
  if (tileLoop)
    parent = tileLoop->getParentOp();
  std::optional<unsigned> role;
  if (isa<WarpSpecializeOp>(parent) && parent->getParentOp() == kernel.getOperation())
    role = store->getParentRegion()->getRegionNumber();
  if (tileLoop && role)
    role = tileLoop->getParentRegion()->getRegionNumber();
  if (parent != kernel.getOperation() && !role)
    return std::nullopt;
  auto make = store.getDesc().getDefiningOp<tile::MakeDescOp>();
  if (!make || !describesItsArgument(make) ||
      llvm::any_of(store.getOffsets(), [](Value v) { return !v.getType().isInteger(32); }))
    return std::nullopt;

  tile::TensorDescType desc = make.getType();
  llvm::SmallVector<int64_t> shape = withoutUnitDims(desc.getBlockShape());
  Value tile = store.getValue();
  if (auto reshape = tile.getDefiningOp<tile::ReshapeOp>())
    tile = reshape.getSrc();
  auto type = cast<RankedTensorType>(tile.getType());
  if (shape.size() != 2 || type.getShape() != ArrayRef<int64_t>(shape) || !type.getEncoding())
    return std::nullopt;

  Type element = desc.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return std::nullopt;
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  if (shape[1] * elementBytes % 128 || shape[0] > 256)
    return std::nullopt;
  if (tileLoop && !fitsBesideAll(kernel, shape[0] * shape[1] * elementBytes))
    return std::nullopt;
  llvm::SmallVector<int64_t> box(desc.getBlockShape());
  box.back() = 128 / elementBytes;
  return Plan{make, tile, box, role, tileLoop};
}

/// `body` run by the first warp of the group only (firstWarp).
static void inFirstWarp(OpBuilder &b, Location loc, bool inRole,
                        llvm::function_ref<void(OpBuilder &)> body) {
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, streams::firstWarp(b, loc, inRole),
                                  /*withElseRegion=*/false);
  OpBuilder inside = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
  body(inside);
}

/// In a tile loop the buffer is written again a tile later: before that,
/// the storing warp waits until the last tile's copy has read it, and a
/// barrier of the group holds the other threads until then. The wait goes
/// just before the last barrier of the group that the loop body already
/// has ahead of `store` (as late as possible: the copy runs meanwhile),
/// else a barrier is added; after the loop, the last copy is waited for.
static void waitForLastTile(tile::StoreBlockOp store, const Plan &plan) {
  Location loc = store.getLoc();
  bool inRole = plan.role.has_value();
  Operation *barrier = nullptr;
  for (Operation *op = store->getPrevNode(); op && !barrier; op = op->getPrevNode())
    if (isGroupBarrier(*op))
      barrier = op;
  OpBuilder b(barrier ? barrier : store.getOperation());
  inFirstWarp(b, loc, inRole, [&](OpBuilder &inside) { TMAStoreWaitOp::create(inside, loc, 0); });
  if (!barrier)
    createGroupBarrier(b, loc, store);
  OpBuilder after(plan.tileLoop->getContext());
  after.setInsertionPointAfter(plan.tileLoop);
  inFirstWarp(after, loc, inRole,
              [&](OpBuilder &inside) { TMAStoreWaitOp::create(inside, loc, 0); });
}

static void storeByTMA(tile::StoreBlockOp store, const Plan &plan, TensorMaps &maps) {
  Location loc = store.getLoc();
  OpBuilder b(store);
  if (plan.tileLoop)
    waitForLastTile(store, plan);
  else if (plan.role)
    // The role's threads stop reading what they have read (Q) before the
    // stores: only across a barrier of the role may the staging buffer take
    // those bytes (tilegpu-allocate-shared-memory).
    createGroupBarrier(b, loc, store);
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(plan.tile.getType());
  auto swizzled = SwizzledAttr::get(context, 128);
  Value map = maps.get(plan.make, plan.box, swizzled, loc);
  auto bufferType =
      SharedMemoryType::get(context, type.getShape(), type.getElementType(), swizzled);
  Value buffer = AllocOp::create(b, loc, bufferType, IntegerAttr());
  LocalStoreOp::create(b, loc, plan.tile, buffer);
  inFirstWarp(b, loc, plan.role.has_value(), [&](OpBuilder &inside) {
    TMAStoreOp::create(inside, loc, buffer, map, store.getOffsets(), /*add=*/false);
    // Outside a tile loop the kernel (or role) ends soon: wait here.
    if (!plan.tileLoop)
      TMAStoreWaitOp::create(inside, loc, 0);
  });
  Value stored = store.getValue();
  store.erase();
  if (auto reshape = stored.getDefiningOp<tile::ReshapeOp>(); reshape && reshape->use_empty())
    reshape.erase();
}

struct TileGPUTMAStores : public tilec::tilegpu::impl::TileGPUTMAStoresBase<TileGPUTMAStores> {
  void runOnOperation() override {
    for (Operation &op : getOperation().getBody()->getOperations()) {
      auto kernel = dyn_cast<FunctionOpInterface>(op);
      if (!kernel || kernel.isExternal() || !kernel->hasAttr(kKernelAttrName))
        continue;
      SmallVector<tile::StoreBlockOp> stores;
      kernel.walk([&](tile::StoreBlockOp store) { stores.push_back(store); });
      TensorMaps maps(kernel);
      llvm::SmallSetVector<int64_t, 4> aligned;
      if (auto previous = kernel->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
        aligned.insert(previous.asArrayRef().begin(), previous.asArrayRef().end());
      bool changed = false;
      // One at a time: a store's plan counts the buffers of those before it.
      for (tile::StoreBlockOp store : stores) {
        std::optional<Plan> plan = planOf(store, kernel);
        if (!plan)
          continue;
        aligned.insert(cast<BlockArgument>(plan->make.getBase()).getArgNumber());
        storeByTMA(store, *plan, maps);
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
