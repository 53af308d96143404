//===- LowerDots.cpp - choose how each tile.dot runs on the tensor cores ---===//
//
// One decision per dot, written into the IR: `tilegpu.warpgroup_dot` +
// `tilegpu.dot_wait` (wgmma, sm_90a) with B staged in a swizzled shared
// buffer, or `tilegpu.mma` (mma.sync) with both operands in registers. The
// operands are produced in the layout the instruction reads: a block load
// or shared-memory read used only by the dot is retyped (each thread loads
// its fragment), anything else gets a `tilegpu.convert_layout`.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPULOWERDOTS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
namespace tile = tilec::tile;

namespace {

/// How an accumulator layout spreads a dot over the warps.
struct WarpGrid {
  int64_t warpsM, warpsN;
  /// The warps along N own blocks of columns (wgmma's column blocks,
  /// LinearLayout::wgmmaAccumulator), not mma.sync's interleaved 8-column
  /// tiles.
  bool columnBlocks = false;
};

/// The warp grid of `layout`, an mma.sync accumulator or wgmma's on column
/// blocks.
static std::optional<WarpGrid> warpGridOf(const tilec::LinearLayout &layout, int64_t m, int64_t n) {
  int64_t warps = layout.numWarps();
  for (int64_t warpsM = 1; warpsM <= warps; warpsM *= 2)
    if (layout == tilec::LinearLayout::mmaAccumulator(m, n, warpsM, warps / warpsM))
      return WarpGrid{warpsM, warps / warpsM};
  if (std::optional<WgmmaGrid> grid = wgmmaGridOf(layout, m, n))
    return WarpGrid{4 * grid->warpgroupsM, grid->columns, /*columnBlocks=*/true};
  return std::nullopt;
}

/// Every user of `value` is a tile.dot (as any operand).
static bool onlyDotsUse(Value value) {
  return llvm::all_of(value.getUsers(), [](Operation *user) { return isa<tile::DotOp>(user); });
}

/// Every user of `value` is a tile.dot reading it as operand `index` (they
/// all want the layout the first of them gives it).
static bool onlyDotsRead(Value value, unsigned index) {
  return llvm::all_of(value.getUses(), [&](OpOperand &use) {
    return isa<tile::DotOp>(use.getOwner()) && use.getOperandNumber() == index;
  });
}

/// Gives `value` the type `wanted` by retyping the ops that make it, where
/// that moves no data: a block load or shared-memory read (each thread then
/// reads its own elements), through reshapes that only add or drop unit
/// dimensions and transposes (their sources take the matching layout).
/// Values on the way may have other users only when `value` is read by
/// dots alone. False (nothing changed) when the chain is anything else.
static bool retypeProducer(Value value, RankedTensorType wanted, bool sharedOk) {
  Operation *producer = value.getDefiningOp();
  if (!producer || (!value.hasOneUse() && !sharedOk))
    return false;
  tilec::LinearLayout layout = *getLinearLayout(wanted);
  if (isa<tile::LoadBlockOp, LocalLoadOp>(producer)) {
    value.setType(wanted);
    return true;
  }
  if (auto reshape = dyn_cast<tile::ReshapeOp>(producer)) {
    auto srcType = cast<RankedTensorType>(reshape.getSrc().getType());
    if (withoutUnitDims(srcType.getShape()) != withoutUnitDims(wanted.getShape()))
      return false;
    tilec::LinearLayout core = layout;
    for (int64_t d = wanted.getRank(); d-- > 0;)
      if (wanted.getDimSize(d) == 1)
        core = core.dropUnitDim(d);
    for (int64_t d = 0; d < srcType.getRank(); ++d)
      if (srcType.getDimSize(d) == 1)
        core = core.expandDims(d);
    if (!retypeProducer(reshape.getSrc(), withLayout(srcType, core), false))
      return false;
    value.setType(wanted);
    return true;
  }
  if (auto trans = dyn_cast<tile::TransOp>(producer)) {
    ArrayRef<int64_t> order = trans.getOrder();
    std::vector<int64_t> inverse(order.size());
    for (auto [i, d] : llvm::enumerate(order))
      inverse[d] = static_cast<int64_t>(i);
    auto srcType = cast<RankedTensorType>(trans.getSrc().getType());
    if (!retypeProducer(trans.getSrc(), withLayout(srcType, layout.transpose(inverse)), false))
      return false;
    value.setType(wanted);
    return true;
  }
  return false;
}

/// `value`, operand `index` of a dot, as a tile in `layout` (a shorthand
/// attribute): as it is when it already has that placement, made in it
/// when its producers allow (retypeProducer), else converted.
static Value inLayout(OpBuilder &b, Value value, Attribute layout, unsigned index) {
  auto type = cast<RankedTensorType>(value.getType());
  auto wanted = RankedTensorType::get(type.getShape(), type.getElementType(), layout);
  FailureOr<tilec::LinearLayout> current = getLinearLayout(type);
  if (succeeded(current) && *current == *getLinearLayout(wanted))
    return value;
  if (retypeProducer(value, wanted, onlyDotsRead(value, index)))
    return value;
  return ConvertLayoutOp::create(b, value.getLoc(), wanted, value);
}

/// A buffer of two `slot`s, and the view of the one for this step of
/// `loop`: the step's parity.
static Value alternatingSlot(OpBuilder &b, Location loc, SharedMemoryType slot, scf::ForOp loop) {
  SmallVector<int64_t> shape{2};
  llvm::append_range(shape, slot.getShape());
  auto type = SharedMemoryType::get(b.getContext(), shape, slot.getElementType(), slot.getEncoding());
  auto ring = AllocOp::create(b, loc, type, IntegerAttr());
  ring->setAttr(kAlternatingSlots, b.getUnitAttr());
  auto asI32 = [&](Value v) -> Value {
    return v.getType().isIndex() ? arith::IndexCastOp::create(b, loc, b.getI32Type(), v) : v;
  };
  Value steps = arith::DivUIOp::create(
      b, loc,
      arith::SubIOp::create(b, loc, asI32(loop.getInductionVar()), asI32(loop.getLowerBound())),
      asI32(loop.getStep()));
  Value parity = arith::RemUIOp::create(b, loc, steps, arith::ConstantIntOp::create(b, loc, 2, 32));
  return SlotOp::create(b, loc, slot, ring, parity);
}

/// The staging buffers made so far, by value and swizzle.
using StagingBuffers = llvm::DenseMap<std::pair<Value, int64_t>, Value>;

/// `staged` stored into a buffer with the `swizzle`-byte swizzle wgmma
/// descriptors address (128, or 64 or 32 for narrower rows), right after it is made (one buffer for
/// all the dots that read it; its live range is then the block's, so the buffers of consecutive
/// loops share bytes); `byMatrix`: by stmatrix where the layout allows (a computed tile stored
/// every step, whose element stores would hold an address register each). A block load only dots
/// read is first retyped to a coalesced layout (16 bytes of a row per thread): its registers only
/// pass through on their way to the buffer.
/// `alternate`: a tile computed every step of that loop, stored into one of
/// two slots by the step's parity ((iv - lb) / step mod 2; kAlternatingSlots),
/// so that a step's store need not wait for the last step's readers.
static Value stagingBuffer(Value staged, StagingBuffers &buffers, int64_t swizzle = 128,
                           bool byMatrix = false, scf::ForOp alternate = {}) {
  if (Value buffer = buffers.lookup({staged, swizzle}))
    return buffer;
  auto tile = cast<RankedTensorType>(staged.getType());
  if (onlyDotsUse(staged)) {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(tile);
    int64_t vector = 128 / tile.getElementTypeBitWidth();
    std::vector<int64_t> shape(tile.getShape().begin(), tile.getShape().end());
    if (succeeded(layout))
      retypeProducer(staged,
                     withLayout(tile, tilec::LinearLayout::defaultBlocked(shape, layout->numWarps(),
                                                                          vector)),
                     /*sharedOk=*/true);
  }
  OpBuilder b(staged.getContext());
  b.setInsertionPointAfterValue(staged);
  tile = cast<RankedTensorType>(staged.getType());
  auto type = SharedMemoryType::get(b.getContext(), tile.getShape(), tile.getElementType(),
                                    SwizzledAttr::get(b.getContext(), swizzle));
  Value buffer = alternate ? alternatingSlot(b, staged.getLoc(), type, alternate)
                           : AllocOp::create(b, staged.getLoc(), type, IntegerAttr());
  byMatrix = byMatrix && fitsStMatrix(tile, type);
  LocalStoreOp::create(b, staged.getLoc(), staged, buffer, byMatrix ? b.getUnitAttr() : UnitAttr());
  buffers[{staged, swizzle}] = buffer;
  return buffer;
}

struct TileGPULowerDots : public tilec::tilegpu::impl::TileGPULowerDotsBase<TileGPULowerDots> {
  using TileGPULowerDotsBase::TileGPULowerDotsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    stagedBuffers.clear();
    transposedSplats.clear();
    narrowKernels.clear();
    std::string arch = this->arch;
    bool useWgmma = wgmma;
    aInSharedMemory = aInShared;
    // Unset options come from the module's tilec.target.
    if (auto target = module->getAttrOfType<DictionaryAttr>("tilec.target")) {
      if (auto recorded = target.getAs<BoolAttr>("a_in_shared"); recorded && !aInShared.hasValue())
        aInSharedMemory = recorded.getValue();
      if (auto recorded = target.getAs<StringAttr>("arch"); recorded && arch.empty())
        arch = recorded.str();
      if (auto recorded = target.getAs<BoolAttr>("wgmma"); recorded && !wgmma.hasValue())
        useWgmma = recorded.getValue();
    }
    if (arch.empty())
      arch = "sm_80";
    if (arch != "sm_80" && arch != "sm_90a") {
      module.emitError("tilegpu-lower-dots: unsupported arch '") << arch << "'; accepted: sm_80, sm_90a";
      return signalPassFailure();
    }
    useWgmma = useWgmma && arch == "sm_90a";
    module.walk([&](FunctionOpInterface kernel) {
      if (kernel->hasAttr(tilec::kNarrowWgmmaAttrName))
        narrowKernels.insert(kernel);
    });
    SmallVector<tile::DotOp> dots;
    module.walk([&](tile::DotOp dot) { dots.push_back(dot); });
    for (tile::DotOp dot : dots)
      if (failed(lower(dot, useWgmma)))
        return signalPassFailure();
  }

  /// The staging buffer of each value some wgmma reads from shared memory.
  StagingBuffers stagedBuffers;
  /// transposedSplat's constants, by the splat they stand for.
  llvm::DenseMap<Value, Value> transposedSplats;
  /// Loop-invariant wgmma A operands go to shared memory.
  bool aInSharedMemory = false;
  /// Kernels whose wgmma B operands may have rows of 32 or 64 bytes.
  llvm::SmallPtrSet<Operation *, 4> narrowKernels;

  /// The swizzle (bytes) of a wgmma B buffer whose rows are `rowBytes`
  /// long: 128 for whole 128-byte blocks; in a kernel marked
  /// tilec.narrow_wgmma also 64 or 32 for rows of that length (head dims
  /// split into power-of-two column tiles: 96 = 64 + 32); 0: none fits.
  int64_t bSwizzle(tile::DotOp dot, int64_t rowBytes) const {
    if (rowBytes % 128 == 0)
      return 128;
    bool narrow = narrowKernels.contains(dot->getParentOfType<FunctionOpInterface>());
    return narrow && (rowBytes == 64 || rowBytes == 32) ? rowBytes : 0;
  }

  /// `dot` is in a loop and `value` is made outside the innermost one.
  static bool loopInvariant(Value value, Operation *dot) {
    auto loop = dot->getParentOfType<scf::ForOp>();
    return loop && !loop.getRegion().isAncestor(value.getParentRegion());
  }

  /// `value` is a block load (through reshapes that only it reads).
  static bool loadedBlock(Value value) {
    Operation *producer = value.getDefiningOp();
    while (auto reshape = dyn_cast_or_null<tile::ReshapeOp>(producer)) {
      if (!reshape.getSrc().hasOneUse())
        return false;
      producer = reshape.getSrc().getDefiningOp();
    }
    return isa_and_nonnull<tile::LoadBlockOp>(producer);
  }

  /// `value` is a block load (through reshapes) that only dots read.
  static bool loadedForDotsOnly(Value value) {
    return onlyDotsUse(value) && loadedBlock(value);
  }

  /// `dot` as `warpgroup_dot` of `a` (registers or a buffer) and the B
  /// buffer (holding Bᵀ where `transposeB`), waited for at once
  /// (tilegpu-sink-dot-waits moves the wait); the transposes peeled off A
  /// (`transposedA`: A's buffer holds Aᵀ) and B go once nothing reads them.
  static LogicalResult replaceByWarpgroupDot(OpBuilder &b, tile::DotOp dot, Value a, Value bBuffer,
                                             bool transposeB, tile::TransOp peeledB,
                                             tile::TransOp transposedA = {}) {
    auto token = WarpgroupDotOp::create(b, dot.getLoc(), a, bBuffer, dot.getC(),
                                        transposedA ? b.getUnitAttr() : UnitAttr(),
                                        transposeB ? b.getUnitAttr() : UnitAttr());
    auto wait = DotWaitOp::create(b, dot.getLoc(), ValueRange{token.getToken()}, 0);
    dot.replaceAllUsesWith(wait.getResult(0));
    dot.erase();
    for (tile::TransOp transposed : {transposedA, peeledB})
      if (transposed && transposed->use_empty())
        transposed.erase();
    return success();
  }

  /// A splat constant B (K×N) whose rows are too narrow for a swizzle (the
  /// forward's ones, row_sums=dot: N = 8) as the same splat N×K, which
  /// wgmma reads as Bᵀ (transpose_b) with K's rows swizzled: made once, next
  /// to the constant. Null where B is no such constant.
  Value transposedSplat(tile::DotOp dot, Value bValue) {
    auto type = cast<RankedTensorType>(bValue.getType());
    SplatElementsAttr splat;
    if (type.getRank() != 2 || !matchPattern(bValue, m_Constant(&splat)))
      return {};
    int64_t elementBytes = type.getElementTypeBitWidth() / 8;
    if (bSwizzle(dot, type.getDimSize(1) * elementBytes) ||
        !bSwizzle(dot, type.getDimSize(0) * elementBytes))
      return {};
    if (Value made = transposedSplats.lookup(bValue))
      return made;
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
    if (failed(layout))
      return {};
    auto transposed = withLayout(
        RankedTensorType::get({type.getDimSize(1), type.getDimSize(0)}, type.getElementType()),
        layout->transpose({1, 0}));
    OpBuilder b(dot.getContext());
    b.setInsertionPointAfterValue(bValue);
    Value made = arith::ConstantOp::create(
        b, bValue.getLoc(), SplatElementsAttr::get(transposed, splat.getSplatValue<Attribute>()));
    transposedSplats[bValue] = made;
    return made;
  }

  /// A transposed tile that only dots read as A and that registers would
  /// reach only through an exchange (it is computed, not loaded): wgmma
  /// reads it from a buffer of its untransposed rows (M contiguous,
  /// transpose_a), written once — the backward's dS = (dSᵀ)ᵀ.
  static tile::TransOp transposedComputedA(tile::DotOp dot) {
    auto trans = dot.getA().getDefiningOp<tile::TransOp>();
    if (!trans || trans.getOrder() != ArrayRef<int64_t>{1, 0} || !onlyDotsRead(dot.getA(), 0))
      return {};
    Operation *source = trans.getSrc().getDefiningOp();
    if (!source || isa<tile::LoadBlockOp, LocalLoadOp, tile::ReshapeOp>(source))
      return {};
    return trans;
  }

  /// `dot` as mma.sync, A and B in the operand layouts of its warp grid; an
  /// accumulator on wgmma's column blocks (a wgmma that did not fit after
  /// all) goes through mma.sync's own layout and back.
  static void replaceByMma(OpBuilder &b, tile::DotOp dot, const WarpGrid &grid) {
    MLIRContext *context = dot.getContext();
    Location loc = dot.getLoc();
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    RankedTensorType mmaType = cType;
    Value c = dot.getC();
    if (grid.columnBlocks) {
      mmaType = RankedTensorType::get(cType.getShape(), cType.getElementType(),
                                      MmaLayoutAttr::get(context, grid.warpsM, grid.warpsN));
      c = ConvertLayoutOp::create(b, loc, mmaType, c);
    }
    Value a =
        inLayout(b, dot.getA(), MmaOperandLayoutAttr::get(context, 0, grid.warpsM, grid.warpsN), 0);
    Value bOperand =
        inLayout(b, dot.getB(), MmaOperandLayoutAttr::get(context, 1, grid.warpsM, grid.warpsN), 1);
    Value result = MmaOp::create(b, loc, mmaType, a, bOperand, c);
    if (grid.columnBlocks)
      result = ConvertLayoutOp::create(b, loc, cType, result);
    dot.replaceAllUsesWith(result);
    dot.erase();
  }

  LogicalResult lower(tile::DotOp dot, bool useWgmma) {
    auto aType = cast<RankedTensorType>(dot.getA().getType());
    auto bType = cast<RankedTensorType>(dot.getB().getType());
    auto cType = cast<RankedTensorType>(dot.getC().getType());
    if (aType.getRank() != 2 || !(aType.getElementType().isBF16() || aType.getElementType().isF16()) ||
        aType.getElementType() != bType.getElementType() || !cType.getElementType().isF32())
      return dot.emitOpError("is lowered to tensor cores only as a 2-D bf16 or f16 product "
                             "with an f32 accumulator");
    int64_t m = cType.getDimSize(0), n = cType.getDimSize(1), k = aType.getDimSize(1);
    FailureOr<tilec::LinearLayout> accLayout = getLinearLayout(cType);
    if (failed(accLayout))
      return dot.emitOpError("expected tiles with layouts (run convert-tile-to-tilegpu first)");
    std::optional<WarpGrid> grid = warpGridOf(*accLayout, m, n);
    if (!grid || m % 16 || n % 8 || k % 16)
      return dot.emitOpError("expected an accumulator in an mma.sync layout and M, N, K "
                             "multiples of 16, 8, 16; got ")
             << cType << " with K = " << k;
    auto [warpsM, warpsN, columnBlocks] = *grid;
    OpBuilder b(dot);
    // wgmma reads B from shared memory as KxN, or as NxK with transpose_b:
    // a transposed tile is staged untransposed.
    Value staged = dot.getB();
    auto trans = staged.getDefiningOp<tile::TransOp>();
    bool transposeB = trans && trans.getOrder() == ArrayRef<int64_t>{1, 0} &&
                      onlyDotsRead(staged, 1);
    tile::TransOp peeled = transposeB ? trans : tile::TransOp();
    if (transposeB) {
      staged = trans.getSrc();
    } else if (Value splatT = useWgmma ? transposedSplat(dot, staged) : Value()) {
      staged = splatT;
      transposeB = true;
    }
    auto stagedType = cast<RankedTensorType>(staged.getType());
    int64_t elementBytes = bType.getElementTypeBitWidth() / 8;
    int64_t bRowBytes = stagedType.getDimSize(1) * elementBytes;
    int64_t swizzle = bSwizzle(dot, bRowBytes);
    // Each warpgroup's wgmma: 64-row slabs of its own, and on column
    // blocks its own columns of B (N-major B: whole swizzled column blocks;
    // blocks narrower than 128 bytes get a buffer of their width's swizzle,
    // 64 or 32 bytes: a copy beside the 128-byte one other dots read).
    int64_t blockN = n / warpsN;
    if (columnBlocks && !transposeB && swizzle &&
        (blockN * elementBytes == 64 || blockN * elementBytes == 32))
      swizzle = blockN * elementBytes;
    bool blocksFit =
        !columnBlocks || transposeB || (swizzle && blockN * elementBytes % swizzle == 0);
    bool fitsWgmma = useWgmma && (warpsN == 1 || columnBlocks) && warpsM % 4 == 0 &&
                     m % (16 * warpsM) == 0 && blockN <= 256 && swizzle && blocksFit && k % 8 == 0;
    MLIRContext *context = dot.getContext();
    int64_t aRowBytes = k * aType.getElementTypeBitWidth() / 8;
    if (fitsWgmma && aInSharedMemory && aRowBytes % 128 == 0 && m % 64 == 0 &&
        ((loopInvariant(dot.getA(), dot) && loadedBlock(dot.getA())) ||
         loadedForDotsOnly(dot.getA()))) {
      // A read by descriptor from a swizzled buffer, stored once before the
      // loop: its registers are free for the loop (Q at d = 128; not a
      // computed tile such as the P that the overlapped forward's last P·V
      // takes into its loop of one step); or a
      // block only dots read, loaded in the loop (the streams pass makes
      // its buffer a ring slot, one with the B operands' of the same
      // block).
      return replaceByWarpgroupDot(b, dot, stagingBuffer(dot.getA(), stagedBuffers),
                                   stagingBuffer(staged, stagedBuffers, swizzle),
                                   transposeB, peeled);
    }
    if (tile::TransOp transA = fitsWgmma ? transposedComputedA(dot) : tile::TransOp()) {
      // Aᵀ's rows are M long: whole 128-byte blocks (m a multiple of 64).
      // With kSplitStagingAttrName, in two slots where computed every step
      // of a loop (the fused backward's dSᵀ).
      scf::ForOp alternate;
      if (auto kernel = dot->getParentOfType<FunctionOpInterface>();
          kernel && kernel->hasAttr(tilec::kSplitStagingAttrName))
        alternate = dyn_cast_or_null<scf::ForOp>(transA.getSrc().getParentBlock()->getParentOp());
      return replaceByWarpgroupDot(b, dot,
                                   stagingBuffer(transA.getSrc(), stagedBuffers, 128,
                                                 /*byMatrix=*/true, alternate),
                                   stagingBuffer(staged, stagedBuffers, swizzle),
                                   transposeB, peeled, transA);
    }
    if (fitsWgmma) {
      // A in registers, B through a swizzled buffer (the streams pass turns
      // a loop's block load stored there into a ring of cp.async slots).
      Value a = inLayout(b, dot.getA(), MmaOperandLayoutAttr::get(context, 0, warpsM, warpsN), 0);
      return replaceByWarpgroupDot(b, dot, a, stagingBuffer(staged, stagedBuffers, swizzle),
                                   transposeB, peeled);
    }
    replaceByMma(b, dot, *grid);
    return success();
  }
};

} // namespace
