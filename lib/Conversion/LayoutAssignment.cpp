//===- LayoutAssignment.cpp - choose a layout for every tile --------------===//

#include "tilec/Conversion/LayoutAssignment.h"

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
namespace tile = tilec::tile;

namespace tilec {

static bool isPowerOf2(int64_t x) { return x > 0 && (x & (x - 1)) == 0; }

/// The most elements of one tile a thread may hold (docs/gpu.md): a
/// thread has 255 registers.
static constexpr int64_t kMaxTileElementsPerThread = 256;

static bool isLayoutFree(Value value) {
  Operation *def = value.getDefiningOp();
  return def && isa<tile::SplatOp, arith::ConstantOp, tile::BroadcastOp>(def);
}

/// True for tiles computed only from scalars, iotas and constants by
/// elementwise, expand_dims and broadcast ops (index and mask arithmetic),
/// and for gathers through such pointers (a variant's runtime inputs): the
/// lowering re-creates them in any layout (convert-tile-to-tilegpu loads
/// a gather again where it is wanted), so they never impose theirs.
static bool isCheap(Value value, int depth = 12) {
  Operation *def = value.getDefiningOp();
  if (!def || depth <= 0)
    return false;
  if (isa<tile::SplatOp, arith::ConstantOp, tile::IotaOp>(def))
    return true;
  bool elementwise = def->getNumResults() == 1 && def->getNumRegions() == 0 &&
                     (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
                      isa<tile::CastOp, tile::ExpandDimsOp, tile::BroadcastOp, tile::AddPtrOp,
                          tile::LoadOp>(def));
  if (!elementwise)
    return false;
  for (Value operand : def->getOperands())
    if (isa<RankedTensorType>(operand.getType()) && !isCheap(operand, depth - 1))
      return false;
  return true;
}

const LinearLayout *LayoutAssignment::lookup(Value value) const {
  auto it = layouts.find(value);
  return it == layouts.end() ? nullptr : &it->second;
}

/// Whether `value` only goes out to memory (block stores and atomic adds, or
/// the function's return) through elementwise ops, casts and reshapes: no
/// op then needs one of its rows in one warpgroup (a row reduction, a dot's
/// A operand), so a dot that makes it may spread its warpgroups over column
/// blocks (the fused backward's dQ share). Elsewhere column blocks would
/// only move the rows back through shared memory (an attention step's
/// scores of 64 rows on 8 warps: 256 KB of conversion buffers).
static bool onlyWrittenOut(Value value) {
  SmallVector<Value> pending{value};
  llvm::DenseSet<Value> seen;
  while (!pending.empty()) {
    Value v = pending.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    for (Operation *user : v.getUsers()) {
      if (isa<tile::StoreBlockOp, tile::AtomicAddBlockOp, func::ReturnOp>(user))
        continue;
      bool elementwise = user->getNumResults() == 1 && user->getNumRegions() == 0 &&
                         (isa<arith::ArithDialect, math::MathDialect>(user->getDialect()) ||
                          isa<tile::CastOp, tile::ReshapeOp>(user));
      if (!elementwise)
        return false;
      pending.push_back(user->getResult(0));
    }
  }
  return true;
}

std::pair<int64_t, int64_t> LayoutAssignment::dotWarps(int64_t m, int64_t n) const {
  int64_t warpsM = std::min(numWarps, std::max<int64_t>(1, m / 16));
  int64_t warpsN = std::min(numWarps / warpsM, std::max<int64_t>(1, n / 8));
  return {warpsM, warpsN};
}

LinearLayout LayoutAssignment::dotAccumulator(int64_t m, int64_t n, bool columnsOk) const {
  auto [wm, wn] = dotWarps(m, n);
  if (columnsOk && warpgroupColumns && wm % 4 == 0 && wn > 1 && m % (16 * wm) == 0 &&
      n % (8 * wn) == 0)
    return LinearLayout::wgmmaAccumulator(m, n, wm / 4, wn).replicatedOver(numWarps);
  return LinearLayout::mmaAccumulator(m, n, wm, wn).replicatedOver(numWarps);
}

LinearLayout LayoutAssignment::dotAccumulator(tile::DotOp dot) const {
  return dotAccumulator(dot.getType().getDimSize(0), dot.getType().getDimSize(1),
                        onlyWrittenOut(dot.getResult()));
}

LinearLayout LayoutAssignment::dotOperandA(int64_t m, int64_t n, int64_t k) const {
  auto [wm, wn] = dotWarps(m, n);
  return LinearLayout::mmaOperandA(m, k, wm, wn).replicatedOver(numWarps);
}

LinearLayout LayoutAssignment::dotOperandB(int64_t m, int64_t n, int64_t k) const {
  auto [wm, wn] = dotWarps(m, n);
  return LinearLayout::mmaOperandB(k, n, wm, wn).replicatedOver(numWarps);
}

LinearLayout LayoutAssignment::defaultLayout(RankedTensorType type) const {
  unsigned bits = isa<tile::PointerType>(type.getElementType())
                      ? 64
                      : std::max(8u, type.getElementTypeBitWidth());
  int64_t vector = std::max<int64_t>(1, 128 / bits);
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  return LinearLayout::defaultBlocked(shape, numWarps, vector);
}

std::optional<LinearLayout> LayoutAssignment::hintFromUsers(Value value, int depth) const {
  // Every layout a user has already decided for a value of this shape.
  SmallVector<LinearLayout> candidates;
  auto shape = cast<RankedTensorType>(value.getType()).getShape();
  for (OpOperand &use : value.getUses()) {
    Operation *user = use.getOwner();
    if (auto dot = dyn_cast<tile::DotOp>(user); dot && use.getOperandNumber() == 2) {
      candidates.push_back(dotAccumulator(dot));
      continue;
    }
    if (isa<scf::YieldOp>(user)) {
      if (auto loop = dyn_cast<scf::ForOp>(user->getParentOp()))
        if (const LinearLayout *l = lookup(loop.getRegionIterArgs()[use.getOperandNumber()]))
          candidates.push_back(*l);
      continue;
    }
    for (Value other : user->getOperands())
      if (other != value && !isLayoutFree(other) && !isCheap(other) && !tentative.contains(other) &&
          (depth ? isa<RankedTensorType>(other.getType()) &&
                       cast<RankedTensorType>(other.getType()).getShape() == shape
                 : other.getType() == value.getType()))
        if (const LinearLayout *l = lookup(other))
          candidates.push_back(*l);
  }
  // A broadcast of numbers compared with another and none decided: what
  // the mask it makes (compared, and-ed, or-ed on) will select between (a
  // mask of two broadcasts that selects between scores takes the scores'
  // layout, not a blocked one moved there through shared memory).
  // Arithmetic on a broadcast keeps its own rule (a gathered bias is made
  // again in the slice of what it is added to), and so do broadcasts of
  // masks (given the scores' layout, the packed backward's prefix-LM dK/dV
  // spilled on sm_80).
  const bool predicate =
      cast<RankedTensorType>(value.getType()).getElementType().isInteger(1);
  const bool comparedBroadcast = !predicate && value.getDefiningOp<tile::BroadcastOp>();
  if (candidates.empty() && depth < 4 && (depth ? predicate : comparedBroadcast))
    for (Operation *user : value.getUsers()) {
      auto result = isa<arith::CmpIOp, arith::CmpFOp, arith::AndIOp, arith::OrIOp>(user)
                        ? dyn_cast<RankedTensorType>(user->getResult(0).getType())
                        : RankedTensorType();
      if (result && result.getShape() == shape)
        if (std::optional<LinearLayout> l = hintFromUsers(user->getResult(0), depth + 1))
          candidates.push_back(*l);
    }
  if (candidates.empty())
    return std::nullopt;
  // A broadcast prefers the candidate in which it moves no data; use-list
  // order must not decide that.
  if (auto bcast = value.getDefiningOp<tile::BroadcastOp>())
    if (const LinearLayout *src = lookup(bcast.getSrc()))
      for (const LinearLayout &candidate : candidates) {
        auto readsOwnRegisters = registerLocalMove(*src, candidate, [&](Coords c) {
          for (size_t d = 0; d < c.size(); ++d)
            if (src->shape()[d] == 1)
              c[d] = 0;
          return c;
        });
        if (readsOwnRegisters)
          return candidate;
      }
  return candidates.front();
}

static std::optional<LinearLayout> reshapeUnitDims(const LinearLayout &src,
                                                   ArrayRef<int64_t> shape);

void LayoutAssignment::anchorToLoad(Value operand, const LinearLayout &layout) {
  // The first dot to ask wins; other users of the same load convert from it.
  // Not for operands every warp holds whole (B with warps along M): those are
  // loaded once, coalesced, and staged in shared memory by the lowering.
  for (const Coords &basis : layout.warps())
    if (llvm::all_of(basis, [](int64_t x) { return x == 0; }))
      return;
  Operation *def = operand.getDefiningOp();
  if (auto load = dyn_cast_or_null<tile::LoadBlockOp>(def)) {
    loadAnchors.try_emplace(load.getResult(), layout);
    return;
  }
  if (auto trans = dyn_cast_or_null<tile::TransOp>(def)) {
    ArrayRef<int64_t> order = trans.getOrder();
    std::vector<int64_t> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i)
      inverse[order[i]] = static_cast<int64_t>(i);
    anchorToLoad(trans.getSrc(), layout.transpose(inverse));
    return;
  }
  if (auto reshape = dyn_cast_or_null<tile::ReshapeOp>(def))
    if (std::optional<LinearLayout> l =
            reshapeUnitDims(layout, reshape.getSrc().getType().getShape()))
      anchorToLoad(reshape.getSrc(), *l);
}

std::optional<LogicalResult> LayoutAssignment::readEncodedLayouts() {
  SmallVector<Value> plain;
  bool encoded = false, wrongWarps = false;
  auto read = [&](Value value) {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return;
    FailureOr<LinearLayout> layout = tilegpu::getLinearLayout(type);
    if (failed(layout)) {
      plain.push_back(value);
      return;
    }
    encoded = true;
    wrongWarps |= layout->numWarps() != numWarps;
    set(value, *layout);
  };
  kernel.walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          read(arg);
    for (Value result : op->getResults())
      read(result);
  });
  if (!encoded) {
    layouts.clear();
    return std::nullopt;
  }
  if (!plain.empty())
    return emitError(plain.front().getLoc(),
                     "expected every tile to have a distributed layout once some do, got ")
           << plain.front().getType();
  if (wrongWarps)
    return kernel.emitError("expected the tiles' layouts to spread over ")
           << numWarps << " warps (--num-warps)";
  return success();
}

LogicalResult LayoutAssignment::run() {
  if (std::optional<LogicalResult> read = readEncodedLayouts())
    return *read;
  const int64_t threads = 32 * numWarps;
  WalkResult shapes = kernel.walk([&](Operation *op) {
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor)
        continue;
      int64_t log2Elements = 0;
      for (int64_t d : tensor.getShape()) {
        if (!isPowerOf2(d)) {
          op->emitError("tile dimensions must be powers of two for the GPU lowering, got ")
              << type;
          return WalkResult::interrupt();
        }
        log2Elements += llvm::Log2_64(d);
      }
      // Registers hold every element of a tile: past the register file the
      // kernel could only spill, and its unrolled code takes minutes to
      // compile (or memory to exhaustion).
      if (log2Elements > 62 || (int64_t{1} << log2Elements) > kMaxTileElementsPerThread * threads) {
        op->emitError("tile ")
            << type << " has more than " << kMaxTileElementsPerThread
            << " elements per thread over " << numWarps
            << " warps (the GPU lowering's bound: a thread's registers); use smaller blocks or "
               "more warps (--num-warps)";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  if (shapes.wasInterrupted())
    return failure();
  kernel.walk([&](tile::DotOp dot) {
    int64_t m = dot.getType().getDimSize(0), n = dot.getType().getDimSize(1);
    int64_t k = dot.getA().getType().getDimSize(1);
    if (m % 16 || n % 8 || k % 16)
      return;
    anchorToLoad(dot.getA(), dotOperandA(m, n, k));
    anchorToLoad(dot.getB(), dotOperandB(m, n, k));
  });
  return visitBlock(kernel.getBody().front());
}

LogicalResult LayoutAssignment::visitBlock(Block &block) {
  for (Operation &op : block)
    if (failed(visit(&op)))
      return failure();
  return success();
}

/// `src` with each register, lane and warp basis mapped by `map` onto a
/// tile of `shape`.
static LinearLayout withBasesMapped(const LinearLayout &src, ArrayRef<int64_t> shape,
                                    llvm::function_ref<Coords(const Coords &)> map) {
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : src.regs()) regs.push_back(map(b));
  for (const Coords &b : src.lanes()) lanes.push_back(map(b));
  for (const Coords &b : src.warps()) warps.push_back(map(b));
  return LinearLayout(std::vector<int64_t>(shape.begin(), shape.end()), regs, lanes, warps);
}

/// Removes or inserts unit dimensions: the layout of a reshape that only
/// changes where the 1s are, or nullopt.
static std::optional<LinearLayout> reshapeUnitDims(const LinearLayout &src,
                                                   ArrayRef<int64_t> shape) {
  std::vector<int64_t> srcKept, dstKept;
  for (int64_t d = 0; d < src.rank(); ++d)
    if (src.shape()[d] != 1)
      srcKept.push_back(d);
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d)
    if (shape[d] != 1)
      dstKept.push_back(d);
  if (srcKept.size() != dstKept.size())
    return std::nullopt;
  for (size_t i = 0; i < srcKept.size(); ++i)
    if (src.shape()[srcKept[i]] != shape[dstKept[i]])
      return std::nullopt;
  return withBasesMapped(src, shape, [&](const Coords &c) {
    Coords out(shape.size(), 0);
    for (size_t i = 0; i < srcKept.size(); ++i)
      out[dstKept[i]] = c[srcKept[i]];
    return out;
  });
}

/// `src` for a reshape of its tile to `shape` that keeps every element in
/// its thread: with power-of-two sizes a coordinate's bits are its row-major
/// index's, so each basis maps through that index (the fold of a wide part
/// into [rows, parts, columns] for one reduction over the parts). Other
/// sizes: reshapeUnitDims.
static std::optional<LinearLayout> reshapeLayout(const LinearLayout &src, ArrayRef<int64_t> shape) {
  auto powersOfTwo = [](ArrayRef<int64_t> sizes) {
    return llvm::all_of(sizes, [](int64_t n) { return n > 0 && (n & (n - 1)) == 0; });
  };
  if (!powersOfTwo(src.shape()) || !powersOfTwo(shape))
    return reshapeUnitDims(src, shape);
  return withBasesMapped(src, shape, [&](const Coords &c) {
    int64_t index = 0;
    for (int64_t d = 0; d < src.rank(); ++d)
      index = index * src.shape()[d] + c[d];
    Coords out(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      out[d] = index % shape[d];
      index /= shape[d];
    }
    return out;
  });
}

LogicalResult LayoutAssignment::visit(Operation *op) {
  auto tensorResult = [&](unsigned i = 0) -> RankedTensorType {
    return i < op->getNumResults() ? dyn_cast<RankedTensorType>(op->getResult(i).getType())
                                   : RankedTensorType();
  };

  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    for (auto [arg, init] : llvm::zip(loop.getRegionIterArgs(), loop.getInitArgs()))
      if (auto type = dyn_cast<RankedTensorType>(arg.getType())) {
        const LinearLayout *l = lookup(init);
        bool decided = l && !isLayoutFree(init) && !tentative.contains(init);
        set(arg, decided ? *l : defaultLayout(type));
        if (!decided)
          tentative.insert(arg);
      }
    for (int round = 0; round < 4; ++round) {
      if (failed(visitBlock(*loop.getBody())))
        return failure();
      auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
      bool stable = true;
      for (auto [arg, yielded] : llvm::zip(loop.getRegionIterArgs(), yield.getOperands())) {
        const LinearLayout *y = lookup(yielded);
        if (y && !isLayoutFree(yielded) && *y != *lookup(arg)) {
          set(arg, *y);
          stable = false;
        }
        if (y && !isLayoutFree(yielded))
          tentative.erase(arg);
      }
      if (stable)
        break;
    }
    for (auto [result, arg] : llvm::zip(loop.getResults(), loop.getRegionIterArgs()))
      if (const LinearLayout *l = lookup(arg))
        set(result, *l);
    return success();
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (failed(visitBlock(branch.getThenRegion().front())))
      return failure();
    if (!branch.getElseRegion().empty() &&
        failed(visitBlock(branch.getElseRegion().front())))
      return failure();
    if (branch.getNumResults()) {
      auto yield = cast<scf::YieldOp>(branch.getThenRegion().front().getTerminator());
      for (auto [result, yielded] : llvm::zip(branch.getResults(), yield.getOperands()))
        if (const LinearLayout *l = lookup(yielded))
          set(result, *l);
    }
    return success();
  }

  RankedTensorType type = tensorResult();
  if (!type)
    return success();

  if (auto dot = dyn_cast<tile::DotOp>(op)) {
    int64_t m = type.getDimSize(0), n = type.getDimSize(1);
    int64_t k = dot.getA().getType().getDimSize(1);
    if (m % 16 || n % 8 || k % 16)
      return op->emitError("tile.dot on the GPU needs M a multiple of 16, N of 8 and K of 16 "
                           "(mma.sync m16n8k16), got ")
             << m << "x" << n << "x" << k;
    set(dot.getResult(), dotAccumulator(dot));
    return success();
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
    set(reduce.getResult(), lookup(reduce.getSrc())->slice(reduce.getAxis()));
    return success();
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    set(expand.getResult(), lookup(expand.getSrc())->expandDims(expand.getAxis()));
    return success();
  }
  if (auto trans = dyn_cast<tile::TransOp>(op)) {
    std::vector<int64_t> order(trans.getOrder().begin(), trans.getOrder().end());
    set(trans.getResult(), lookup(trans.getSrc())->transpose(order));
    return success();
  }
  if (auto reshape = dyn_cast<tile::ReshapeOp>(op)) {
    std::optional<LinearLayout> l = reshapeLayout(*lookup(reshape.getSrc()), type.getShape());
    set(reshape.getResult(), l ? *l : defaultLayout(type));
    return success();
  }
  if (isa<tile::SplatOp, arith::ConstantOp, tile::BroadcastOp>(op)) {
    std::optional<LinearLayout> hint = hintFromUsers(op->getResult(0));
    set(op->getResult(0), hint ? *hint : defaultLayout(type));
    return success();
  }
  if (auto load = dyn_cast<tile::LoadBlockOp>(op)) {
    auto anchor = loadAnchors.find(load.getResult());
    set(load.getResult(), anchor != loadAnchors.end() ? anchor->second : defaultLayout(type));
    return success();
  }
  if (auto load = dyn_cast<tile::LoadOp>(op)) {
    set(load.getResult(), *lookup(load.getPtr()));
    return success();
  }
  if (auto scale = dyn_cast<tile::ScaleRowsOp>(op)) {
    // The scaled tile's layout (the factors are read in its rows' slice),
    // tentative while it is.
    set(scale.getResult(), *lookup(scale.getX()));
    markTentative(scale.getResult(), tentative.contains(scale.getX()));
    return success();
  }
  // Elementwise ops and casts: the layout of the first computed tile operand.
  const LinearLayout *chosen = nullptr;
  for (Value operand : op->getOperands())
    if (isa<RankedTensorType>(operand.getType()) && !isLayoutFree(operand) &&
        !isCheap(operand) && !tentative.contains(operand))
      if ((chosen = lookup(operand)))
        break;
  // None decided: the first operand's with a layout, and the result is
  // tentative where an operand is (a loop-carried row sum scaled by a
  // broadcast must not impose its first-round layout on what the body adds
  // to it, whichever operand comes first).
  bool fromTentative = false;
  if (!chosen)
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType())) {
        fromTentative |= tentative.contains(operand);
        if (!chosen)
          chosen = lookup(operand);
      }
  for (Value result : op->getResults()) {
    markTentative(result, fromTentative);
    if (auto t = dyn_cast<RankedTensorType>(result.getType()))
      set(result, chosen && chosen->shape() == std::vector<int64_t>(t.getShape().begin(),
                                                                    t.getShape().end())
                      ? *chosen
                      : defaultLayout(t));
  }
  return success();
}

} // namespace tilec
