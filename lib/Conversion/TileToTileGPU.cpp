//===- TileToTileGPU.cpp - layouts into the types: tile IR to tilegpu IR --===//

#include "tilec/Conversion/LayoutAssignment.h"
#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

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
    if (auto scale = dyn_cast<tile::ScaleRowsOp>(op)) {
      // x in the result's layout, the factors in its rows' slice.
      readInLayoutOf(scale.getXMutable(), scale.getType());
      FailureOr<tilec::LinearLayout> rows = getLinearLayout(scale.getType());
      if (succeeded(rows))
        readAs(scale.getFactorMutable(), withLayout(scale.getFactor().getType(), rows->slice(1)));
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

/// No op from right after `from` up to `to` (same block) may write memory:
/// a load moved there reads what it read before.
static bool noWritesBetween(Operation *from, Operation *to) {
  if (from->getBlock() != to->getBlock() || !from->isBeforeInBlock(to))
    return false;
  for (Operation *op = from->getNextNode(); op && op != to; op = op->getNextNode()) {
    WalkResult writes = op->walk([](Operation *nested) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
      if ((effects && effects.hasEffect<MemoryEffects::Write>()) ||
          (!effects && !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
           nested->getNumRegions() == 0 && !isa<tile::TileDialect>(nested->getDialect()) &&
           !isPure(nested)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (writes.wasInterrupted())
      return false;
  }
  return true;
}

/// Makes `value` again in `layout` before `at` from what it is computed of
/// (splats, constants, iotas, elementwise and shape ops, address arithmetic,
/// and gathers read nowhere else: at most `budget` ops), or null. What a
/// layout conversion of index and mask arithmetic, or of a variant's gather
/// (a runtime input read per row or per key), becomes instead of an
/// exchange through shared memory; a broadcast's source is made in the
/// result's layout with the repeated dimension sliced off, so each thread
/// computes (or loads) each of its values once.
/// What one rematerialization made: the clones (erased if it fails), and
/// each value already made in a type (shared subexpressions, such as an
/// index both a gather's address and its mask read, are made once).
struct Remade {
  SmallVector<Operation *> ops;
  DenseMap<std::pair<Value, Type>, Value> values;
};

static Value rematerialize(Value value, const tilec::LinearLayout &layout, Operation *at,
                           int &budget, Remade &made) {
  auto type = cast<RankedTensorType>(value.getType());
  RankedTensorType wanted = withLayout(type, layout);
  if (type == wanted)
    return value;
  if (Value done = made.values.lookup({value, wanted}))
    return done;
  Operation *def = value.getDefiningOp();
  if (!def || def->getNumResults() != 1 || def->getNumRegions() != 0 || --budget < 0)
    return {};
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return rematerialize(convert.getSrc(), layout, at, budget, made);
  // The operands' layouts: the result's, but for the shape ops.
  auto operandLayout = [&](Value operand) -> std::optional<tilec::LinearLayout> {
    auto operandType = dyn_cast<RankedTensorType>(operand.getType());
    if (!operandType)
      return std::nullopt;
    if (auto expand = dyn_cast<tile::ExpandDimsOp>(def))
      return layout.dropUnitDim(expand.getAxis());
    if (isa<tile::BroadcastOp>(def)) {
      tilec::LinearLayout source = layout;
      for (int64_t d = type.getRank() - 1; d >= 0; --d)
        if (operandType.getDimSize(d) == 1 && type.getDimSize(d) != 1)
          source = source.slice(d).expandDims(d);
      return source;
    }
    return layout;
  };
  bool remakeable =
      isa<tile::SplatOp, tile::IotaOp, arith::ConstantOp, tile::ExpandDimsOp, tile::BroadcastOp,
          tile::CastOp, tile::AddPtrOp>(def) ||
      (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) && isPure(def));
  if (auto load = dyn_cast<tile::LoadOp>(def))
    remakeable = load->hasOneUse() && noWritesBetween(load, at);
  if (!remakeable)
    return {};
  IRMapping mapping;
  for (Value operand : def->getOperands())
    if (std::optional<tilec::LinearLayout> l = operandLayout(operand)) {
      Value again = rematerialize(operand, *l, at, budget, made);
      if (!again)
        return {};
      mapping.map(operand, again);
    }
  OpBuilder b(at);
  Operation *copy = b.clone(*def, mapping);
  made.ops.push_back(copy);
  made.values[{value, wanted}] = copy->getResult(0);
  copy->getResult(0).setType(wanted);
  if (auto constant = dyn_cast<arith::ConstantOp>(copy))
    if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
      constant.setValueAttr(dense.reshape(wanted));
  return copy->getResult(0);
}

/// `value` is computed from a gather (tile.load) by a few ops.
static bool readsGather(Value value, int depth = 24) {
  Operation *def = value.getDefiningOp();
  if (!def || depth <= 0)
    return false;
  if (isa<tile::LoadOp>(def))
    return true;
  return llvm::any_of(def->getOperands(), [&](Value v) {
    return isa<RankedTensorType>(v.getType()) && readsGather(v, depth - 1);
  });
}

/// Layout conversions of values read from a gather that are cheaper made
/// again in the wanted layout (see rematerialize) are; what they were made
/// of goes when unused. (Index arithmetic alone is left to the lowerings,
/// which re-create it in place: tilegpu-lower-conversions, tile-to-llvm.)
static void rematerializeConversions(func::FuncOp kernel) {
  SmallVector<ConvertLayoutOp> conversions;
  kernel.walk([&](ConvertLayoutOp op) { conversions.push_back(op); });
  for (ConvertLayoutOp op : conversions) {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(op.getType());
    if (failed(layout) || !readsGather(op.getSrc()))
      continue;
    // A gather's index and mask arithmetic (two dimensions' bounds, a
    // clamp) is a few dozen ops.
    int budget = 64;
    Remade made;
    Value again = rematerialize(op.getSrc(), *layout, op, budget, made);
    if (!again) {
      for (Operation *partial : llvm::reverse(made.ops))
        partial->erase();
      continue;
    }
    SmallVector<Operation *> maybeDead;
    if (Operation *src = op.getSrc().getDefiningOp())
      maybeDead.push_back(src);
    op.getResult().replaceAllUsesWith(again);
    op.erase();
    // The old chain, from the converted value up, where nothing reads it.
    llvm::SmallPtrSet<Operation *, 16> erased;
    while (!maybeDead.empty()) {
      Operation *dead = maybeDead.pop_back_val();
      if (erased.contains(dead) || !dead->use_empty() || dead->getNumRegions() ||
          !(isPure(dead) || isa<tile::LoadOp, ConvertLayoutOp>(dead)))
        continue;
      for (Value operand : dead->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          maybeDead.push_back(producer);
      erased.insert(dead);
      dead->erase();
    }
  }
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
      tilec::LayoutAssignment layouts(kernel, numWarps, warpgroupColumns);
      if (failed(layouts.run()) || failed(writeLayouts(kernel, layouts)))
        return signalPassFailure();
      insertConversions(kernel);
      rematerializeConversions(kernel);
      // A kernel of 32 * num-warps threads (what lowering and launch assume).
      Builder b(kernel.getContext());
      kernel->setAttr(kKernelAttrName, b.getUnitAttr());
      kernel->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                      b.getDenseI32ArrayAttr({static_cast<int32_t>(32 * numWarps), 1, 1}));
    }
  }
};

} // namespace
