//===- TileToTileGPU.cpp - layouts into the types: tile IR to tilegpu IR --===//

#include "tilec/Conversion/LayoutAssignment.h"
#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/Math/IR/Math.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_CONVERTTILETOTILEGPU
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
namespace tile = tilec::tile;

namespace {

/// Some tile of `kernel` already carries a distributed layout.
static bool hasLayouts(func::FuncOp kernel) {
  WalkResult found = kernel.walk([](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<RankedTensorType>(type);
          tensor && isa_and_nonnull<DistributedLayoutAttr>(tensor.getEncoding()))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return found.wasInterrupted();
}

/// Gives every tile value of `kernel` its assigned layout as its type's
/// encoding (tile constants get their value retyped with it).
static LogicalResult writeLayouts(func::FuncOp kernel, const tilec::LayoutAssignment &layouts) {
  auto retype = [&](Value value) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    const tilec::LinearLayout *layout = layouts.lookup(value);
    if (!layout)
      return emitError(value.getLoc(), "layout assignment left this tile without a layout: ")
             << type;
    value.setType(withLayout(type, *layout));
    return success();
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(retype(arg)))
            return WalkResult::interrupt();
    for (Value value : op->getResults())
      if (failed(retype(value)))
        return WalkResult::interrupt();
    if (auto constant = dyn_cast<arith::ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        constant.setValueAttr(dense.reshape(cast<ShapedType>(constant.getType())));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  // Tiles passed in or returned (in tests; kernels take pointers) change the
  // signature too.
  SmallVector<Type> results;
  kernel.walk([&](func::ReturnOp ret) { results = llvm::to_vector(ret.getOperandTypes()); });
  kernel.setType(FunctionType::get(kernel.getContext(),
                                   kernel.getBody().front().getArgumentTypes(), results));
  return success();
}

/// `operand` of its owner read in `type` (same shape and element type): a
/// convert_layout right before the owner when its layout differs.
static void readAs(OpOperand &operand, Type type) {
  if (operand.get().getType() == type)
    return;
  OpBuilder b(operand.getOwner());
  operand.set(ConvertLayoutOp::create(b, operand.getOwner()->getLoc(), type, operand.get()));
}

/// `operand` in the layout of `like` (a tile type of the same shape).
static void readInLayoutOf(OpOperand &operand, Type like) {
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  auto target = dyn_cast<RankedTensorType>(like);
  if (!type || !target || type.getShape() != target.getShape())
    return;
  readAs(operand, RankedTensorType::get(type.getShape(), type.getElementType(),
                                        target.getEncoding()));
}

/// Where an op's types tie an operand's layout to another value's, the
/// operand is converted as the GPU lowering reads it: elementwise ops,
/// pointer loads and address arithmetic read their result's layout, pointer
/// stores their pointers', a dot its accumulator in its result's, loops and
/// branches the layouts of the values they carry.
static void insertConversions(func::FuncOp kernel) {
  kernel.walk([&](Operation *op) {
    if (auto dot = dyn_cast<tile::DotOp>(op)) {
      // A and B stay where they are: how a dot reads its operands (registers
      // in the mma operand layout, staged or streamed through shared memory,
      // wgmma descriptors) is the dot lowering's choice.
      readInLayoutOf(dot.getCMutable(), dot.getType());
      return;
    }
    if (auto load = dyn_cast<tile::LoadOp>(op)) {
      for (OpOperand &operand : op->getOpOperands())
        readInLayoutOf(operand, load.getType());
      return;
    }
    if (auto store = dyn_cast<tile::StoreOp>(op)) {
      for (OpOperand &operand : op->getOpOperands())
        if (operand.get() != store.getPtr())
          readInLayoutOf(operand, store.getPtr().getType());
      return;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(op)) {
      Operation *parent = op->getParentOp();
      for (OpOperand &operand : op->getOpOperands()) {
        unsigned i = operand.getOperandNumber();
        if (auto loop = dyn_cast<scf::ForOp>(parent))
          readInLayoutOf(operand, loop.getRegionIterArgs()[i].getType());
        else if (isa<scf::IfOp>(parent))
          readInLayoutOf(operand, parent->getResult(i).getType());
      }
      return;
    }
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      for (auto [init, arg] : llvm::zip(loop.getInitArgsMutable(), loop.getRegionIterArgs()))
        readInLayoutOf(init, arg.getType());
      return;
    }
    bool elementwise = op->getNumResults() == 1 && op->getNumRegions() == 0 &&
                       (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
                        isa<tile::CastOp, tile::AddPtrOp>(op));
    if (elementwise)
      for (OpOperand &operand : op->getOpOperands())
        readInLayoutOf(operand, op->getResult(0).getType());
  });
}

/// Tiles enter a function through its body (block loads, iotas, ...): a
/// tile-typed argument has no layout to start from. An error naming it.
static LogicalResult checkArguments(func::FuncOp kernel) {
  for (BlockArgument arg : kernel.getArguments())
    if (isa<RankedTensorType>(arg.getType()))
      return kernel.emitError("tile arguments cannot be placed on threads; argument ")
             << arg.getArgNumber() << " is " << arg.getType()
             << " (pass pointers and sizes, and make tiles inside the kernel from "
                "tile.make_desc descriptors)";
  return success();
}

struct ConvertTileToTileGPU
    : public tilec::tilegpu::impl::ConvertTileToTileGPUBase<ConvertTileToTileGPU> {
  using ConvertTileToTileGPUBase::ConvertTileToTileGPUBase;

  void runOnOperation() override {
    for (auto kernel : getOperation().getOps<func::FuncOp>()) {
      if (kernel.isExternal() || hasLayouts(kernel))
        continue;
      if (failed(checkArguments(kernel)))
        return signalPassFailure();
      tilec::LayoutAssignment layouts(kernel, numWarps);
      if (failed(layouts.run()) || failed(writeLayouts(kernel, layouts)))
        return signalPassFailure();
      insertConversions(kernel);
      // A kernel of 32 * num-warps threads (what lowering and launch assume).
      Builder b(kernel.getContext());
      kernel->setAttr(kKernelAttrName, b.getUnitAttr());
      kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                      b.getDenseI32ArrayAttr({static_cast<int32_t>(32 * numWarps), 1, 1}));
    }
  }
};

} // namespace
