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
  /// In a warp role (else the kernel's body, all of whose threads store).
  bool inRole;
};

/// Whether `store` ends up by TMA, and how: a store of a whole 2-D tile
/// (unit dimensions aside) whose rows are whole 128-byte column blocks,
/// through a descriptor of a tensor argument as the runtime passes it, run
/// once by every thread of the kernel or of a warp role (directly in its
/// body: not in a loop, whose next iteration would need the buffer back,
/// nor in a branch).
static std::optional<Plan> planOf(tile::StoreBlockOp store, FunctionOpInterface kernel) {
  Operation *parent = store->getParentOp();
  bool inRole = isa<WarpSpecializeOp>(parent) && parent->getParentOp() == kernel.getOperation();
  if (parent != kernel.getOperation() && !inRole)
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
  llvm::SmallVector<int64_t> box(desc.getBlockShape());
  box.back() = 128 / elementBytes;
  return Plan{make, tile, box, inRole};
}

/// Whether this thread is in the first warp of the threads that run `at`:
/// of the kernel's block, or of its warp role (whose first warpgroup's
/// thread indices are not the block's).
static Value firstWarp(OpBuilder &b, Location loc, bool inRole) {
  auto constant = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  if (!inRole)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid, constant(32));
  Value warpgroup = WarpgroupIdOp::create(b, loc, b.getI32Type());
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpgroup, constant(0));
  Value inWarpgroup = arith::RemUIOp::create(b, loc, tid, constant(128));
  Value warp0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, inWarpgroup, constant(32));
  return arith::AndIOp::create(b, loc, first, warp0);
}

static void storeByTMA(tile::StoreBlockOp store, const Plan &plan, TensorMaps &maps) {
  Location loc = store.getLoc();
  OpBuilder b(store);
  MLIRContext *context = b.getContext();
  auto type = cast<RankedTensorType>(plan.tile.getType());
  auto swizzled = SwizzledAttr::get(context, 128);
  Value map = maps.get(plan.make, plan.box, swizzled, loc);
  auto bufferType =
      SharedMemoryType::get(context, type.getShape(), type.getElementType(), swizzled);
  Value buffer = AllocOp::create(b, loc, bufferType, IntegerAttr());
  LocalStoreOp::create(b, loc, plan.tile, buffer);
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, firstWarp(b, loc, plan.inRole),
                                  /*withElseRegion=*/false);
  OpBuilder inside = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
  TMAStoreOp::create(inside, loc, buffer, map, store.getOffsets(), /*add=*/false);
  TMAStoreWaitOp::create(inside, loc, 0);
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
      SmallVector<std::pair<tile::StoreBlockOp, Plan>> planned;
      kernel.walk([&](tile::StoreBlockOp store) {
        if (std::optional<Plan> plan = planOf(store, kernel))
          planned.push_back({store, *plan});
      });
      if (planned.empty())
        continue;
      TensorMaps maps(kernel);
      llvm::SmallSetVector<int64_t, 4> aligned;
      if (auto previous = kernel->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
        aligned.insert(previous.asArrayRef().begin(), previous.asArrayRef().end());
      for (auto &[store, plan] : planned) {
        aligned.insert(cast<BlockArgument>(plan.make.getBase()).getArgNumber());
        storeByTMA(store, plan, maps);
      }
      SmallVector<int64_t> sorted(aligned.begin(), aligned.end());
      llvm::sort(sorted);
      kernel->setAttr("tilec.aligned_args", DenseI64ArrayAttr::get(&getContext(), sorted));
    }
  }
};

} // namespace
