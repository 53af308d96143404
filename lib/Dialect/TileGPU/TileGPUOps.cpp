//===- TileGPUOps.cpp - verifiers, builders and formats of tilegpu ops ----===//

#include "tilec/Dialect/TileGPU/TileGPU.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilec::tilegpu;
namespace tile = tilec::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Value tilec::tilegpu::rootBuffer(Value buffer) {
  while (auto slot = buffer.getDefiningOp<SlotOp>())
    buffer = slot.getBuffer();
  return buffer;
}

SmallVector<Value, 2> tilec::tilegpu::dotOperandBuffers(WarpgroupDotOp dot) {
  SmallVector<Value, 2> buffers;
  for (; dot; dot = dot.getChainedDot()) {
    if (isa<SharedMemoryType>(dot.getA().getType()))
      buffers.push_back(rootBuffer(dot.getA()));
    buffers.push_back(rootBuffer(dot.getB()));
  }
  return buffers;
}

std::optional<WgmmaGrid> tilec::tilegpu::wgmmaGridOf(const tilec::LinearLayout &layout, int64_t m,
                                                     int64_t n) {
  int64_t warpgroups = layout.numWarps() / 4;
  if (layout.numWarps() % 4)
    return std::nullopt;
  for (int64_t columns = 1; columns <= warpgroups; columns *= 2) {
    int64_t groupsM = warpgroups / columns;
    if (m % (64 * groupsM) || n % (8 * columns))
      continue;
    if (layout == tilec::LinearLayout::wgmmaAccumulator(m, n, groupsM, columns))
      return WgmmaGrid{groupsM, columns};
  }
  return std::nullopt;
}

bool tilec::tilegpu::isGroupBarrier(Operation &op) {
  if (isa<BarrierOp>(op))
    return true;
  auto sync = dyn_cast<BarrierSyncOp>(op);
  if (!sync || !matchPattern(sync.getId(), m_Constant()) || isa<scf::IfOp>(op.getParentOp()))
    return false;
  std::optional<WarpRole> role = enclosingRole(op);
  return !role || sync.getThreads() == role->threads;
}

std::optional<tilec::tilegpu::WarpRole> tilec::tilegpu::enclosingRole(Operation &op) {
  for (Operation *parent = &op; parent; parent = parent->getParentOp())
    if (auto roles = dyn_cast_or_null<WarpSpecializeOp>(parent->getParentOp())) {
      unsigned index = parent->getParentRegion()->getRegionNumber();
      return WarpRole{index, 32 * static_cast<int32_t>(roles.getWarps()[index])};
    }
  return std::nullopt;
}

Block *tilec::tilegpu::tileLoopBody(Operation &op) {
  Operation *parent = op.getParentOp();
  if (isa_and_nonnull<WarpSpecializeOp>(parent))
    parent = parent->getParentOp();
  if (!isa_and_nonnull<FunctionOpInterface>(parent) || !parent->hasAttr(kPersistentAttrName))
    return nullptr;
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return loop.getBody();
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return loop.getAfterBody();
  return nullptr;
}

void tilec::tilegpu::createGroupBarrier(OpBuilder &b, Location loc, Operation *at) {
  std::optional<WarpRole> role = enclosingRole(*at);
  if (!role) {
    BarrierOp::create(b, loc);
    return;
  }
  Value id = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(role->index + 1));
  BarrierSyncOp::create(b, loc, id, role->threads);
}

SmallVector<int64_t> tilec::tilegpu::withoutUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> kept;
  for (int64_t d : shape)
    if (d != 1)
      kept.push_back(d);
  return kept;
}

static bool isMmaElement(Type type) { return type.isBF16() || type.isF16(); }

/// The layout of a tile operand, or an error at `op` naming `what`.
static FailureOr<tilec::LinearLayout> layoutOf(Operation *op, Value value, StringRef what) {
  auto type = cast<RankedTensorType>(value.getType());
  FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
  if (failed(layout))
    op->emitOpError() << "expected " << what << " with a distributed layout, got " << type;
  return layout;
}

/// `index` is not a constant, or a constant in [0, count).
static LogicalResult checkConstantIndex(Operation *op, Value index, int64_t count,
                                        StringRef what) {
  APInt value;
  if (matchPattern(index, m_ConstantInt(&value)) &&
      (value.isNegative() || value.getSExtValue() >= count))
    return op->emitOpError() << "expected " << what << " in [0, " << count << "), got "
                             << value.getSExtValue();
  return success();
}

static LogicalResult checkPending(Operation *op, int32_t pending) {
  if (pending < 0)
    return op->emitOpError() << "expected a non-negative pending count, got " << pending;
  return success();
}

//===----------------------------------------------------------------------===//
// Registers and shared memory
//===----------------------------------------------------------------------===//

LogicalResult ConvertLayoutOp::verify() {
  auto src = getSrc().getType(), result = getResult().getType();
  if (src.getShape() != result.getShape() || src.getElementType() != result.getElementType())
    return emitOpError("expected the same shape and element type, got ")
           << src << " and " << result;
  FailureOr<tilec::LinearLayout> from = layoutOf(*this, getSrc(), "a source");
  FailureOr<tilec::LinearLayout> to = layoutOf(*this, getResult(), "a result");
  if (failed(from) || failed(to))
    return failure();
  if (from->numWarps() != to->numWarps())
    return emitOpError("expected layouts over the same number of warps, got ")
           << from->numWarps() << " and " << to->numWarps();
  return success();
}

OpFoldResult ConvertLayoutOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  if (auto inner = getSrc().getDefiningOp<ConvertLayoutOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

/// An allocation's byte offset, when set, is not negative.
static LogicalResult checkOffset(Operation *op, IntegerAttr offset) {
  if (offset && offset.getInt() < 0)
    return op->emitOpError("expected a non-negative offset, got ") << offset.getInt();
  return success();
}

LogicalResult AllocOp::verify() { return checkOffset(*this, getOffsetAttr()); }

LogicalResult SlotOp::verify() {
  SharedMemoryType buffer = getBuffer().getType();
  if (buffer.getShape().size() < 2)
    return emitOpError("expected a buffer with a slot dimension, got ") << buffer;
  if (getResult().getType() != buffer.getSlotType())
    return emitOpError("expected the slot type ")
           << buffer.getSlotType() << ", got " << getResult().getType();
  return checkConstantIndex(*this, getIndex(), buffer.getShape().front(), "a slot index");
}

/// A tile moved between registers and a shared buffer: same shape and
/// element type, a distributed layout on the registers' side.
static LogicalResult verifyLocalAccess(Operation *op, Value tile, SharedMemoryType buffer) {
  auto type = cast<RankedTensorType>(tile.getType());
  if (type.getShape() != buffer.getShape() || type.getElementType() != buffer.getElementType())
    return op->emitOpError("expected the tile and the buffer to have one shape and element "
                           "type, got ")
           << type << " and " << buffer;
  return layoutOf(op, tile, "a tile");
}

LogicalResult LocalLoadOp::verify() {
  return verifyLocalAccess(*this, getResult(), getSrc().getType());
}

bool tilec::tilegpu::fitsStMatrix(RankedTensorType type, SharedMemoryType buffer) {
  FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
  if (failed(layout) || type.getRank() != 2 || type.getElementTypeBitWidth() != 16 ||
      type.getElementType() != buffer.getElementType() || type.getShape() != buffer.getShape() ||
      !isa<SwizzledAttr>(buffer.getEncoding()))
    return false;
  const std::vector<tilec::Coords> fragmentLanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  const std::vector<tilec::Coords> &regs = layout->regs();
  if (layout->lanes() != fragmentLanes || regs.size() < 3 || regs[0] != tilec::Coords{0, 1})
    return false;
  auto wholeBlocks = [](const tilec::Coords &c) { return c[0] % 8 == 0 && c[1] % 8 == 0; };
  return llvm::all_of(llvm::drop_begin(regs), wholeBlocks) &&
         llvm::all_of(layout->warps(), wholeBlocks);
}

LogicalResult LocalStoreOp::verify() {
  if (failed(verifyLocalAccess(*this, getValue(), getDst().getType())))
    return failure();
  if (getMatrix() && !fitsStMatrix(getValue().getType(), getDst().getType()))
    return emitOpError("with matrix expects 16-bit mma C fragments of whole 8x8 blocks, four "
                       "or more a thread, into a swizzled buffer; got ")
           << getValue().getType() << " into " << getDst().getType();
  return success();
}

/// One element of a one-dimensional buffer of `element`s.
static LogicalResult verifyScalarAccess(Operation *op, Type element, SharedMemoryType buffer,
                                        Value index) {
  if (buffer.getShape().size() != 1)
    return op->emitOpError("expected a one-dimensional buffer, got ") << buffer;
  if (element != buffer.getElementType())
    return op->emitOpError("expected the buffer's element type ")
           << buffer.getElementType() << ", got " << element;
  return checkConstantIndex(op, index, buffer.getShape().front(), "an element index");
}

LogicalResult ScalarStoreOp::verify() {
  return verifyScalarAccess(*this, getValue().getType(), getBuffer().getType(), getIndex());
}

LogicalResult ScalarLoadOp::verify() {
  return verifyScalarAccess(*this, getResult().getType(), getBuffer().getType(), getIndex());
}

//===----------------------------------------------------------------------===//
// Copies
//===----------------------------------------------------------------------===//

/// A block of `blockShape` x `element` lands in (or comes from) `buffer`.
static LogicalResult verifyBlockBuffer(Operation *op, ArrayRef<int64_t> blockShape,
                                       Type element, SharedMemoryType buffer, StringRef what) {
  if (element != buffer.getElementType())
    return op->emitOpError("expected the ")
           << what << " and the buffer to have one element type, got " << element << " and "
           << buffer.getElementType();
  if (withoutUnitDims(blockShape) != withoutUnitDims(buffer.getShape()))
    return op->emitOpError("expected the ")
           << what << " to have the buffer's shape up to unit dimensions, got "
           << tilec::tile::TensorDescType::get(op->getContext(), blockShape, element).getBlockType()
           << " for " << buffer;
  return success();
}

static LogicalResult checkCoordinateCount(Operation *op, size_t count, size_t rank) {
  if (count != rank)
    return op->emitOpError("expected ") << rank << " coordinates, got " << count;
  return success();
}

LogicalResult AsyncCopyOp::verify() {
  tile::TensorDescType desc = getDesc().getType();
  if (failed(checkCoordinateCount(*this, getOffsets().size(), desc.getRank())))
    return failure();
  return verifyBlockBuffer(*this, desc.getBlockShape(), desc.getElementType(),
                           getDst().getType(), "block");
}

LogicalResult AsyncWaitOp::verify() { return checkPending(*this, getPending()); }

/// `op` synchronizes the whole block, so it may not run in one warp role.
static LogicalResult checkOutsideRoles(Operation *op) {
  if (op->getParentOfType<WarpSpecializeOp>())
    return op->emitOpError("expected outside tilegpu.warp_specialize (it waits for every "
                           "thread of the block)");
  return success();
}

LogicalResult BarrierOp::verify() { return checkOutsideRoles(*this); }

LogicalResult MBarrierCreateOp::verify() {
  if (failed(checkOutsideRoles(*this)))
    return failure();
  if (getArrivalsAttr().getInt() < 1)
    return emitOpError("expected at least one arrival per phase, got ")
           << getArrivalsAttr().getInt();
  return checkOffset(*this, getOffsetAttr());
}

LogicalResult MBarrierArriveOp::verify() {
  if (IntegerAttr bytes = getExpectTxAttr(); bytes && bytes.getInt() <= 0)
    return emitOpError("expected a positive transaction byte count, got ") << bytes.getInt();
  return checkConstantIndex(*this, getIndex(), getBarriers().getType().getCount(),
                            "a barrier index");
}

int64_t tilec::tilegpu::columnBlockBoxes(TensorMapType map, SharedMemoryType buffer) {
  auto swizzled = dyn_cast<SwizzledAttr>(buffer.getEncoding());
  ArrayRef<int64_t> box = map.getBoxShape();
  int64_t boxBytes = box.back() * map.getElementType().getIntOrFloatBitWidth() / 8;
  if (!swizzled || box.empty() || boxBytes != swizzled.getBytes() ||
      buffer.getShape().back() % box.back())
    return 1;
  return buffer.getShape().back() / box.back();
}

/// A TMA copy between `map`'s box and `buffer`; with `columnBlocks`, the
/// buffer may also be several boxes side by side (columnBlockBoxes).
static LogicalResult verifyTMA(Operation *op, TensorMapType map, size_t coords,
                               SharedMemoryType buffer, bool columnBlocks) {
  if (failed(checkCoordinateCount(op, coords, map.getBoxShape().size())))
    return failure();
  if (map.getEncoding() != buffer.getEncoding())
    return op->emitOpError("expected the buffer to have the tensor map's encoding ")
           << map.getEncoding() << ", got " << buffer.getEncoding();
  SmallVector<int64_t> boxes(map.getBoxShape());
  if (columnBlocks)
    boxes.back() *= columnBlockBoxes(map, buffer);
  return verifyBlockBuffer(op, boxes, map.getElementType(), buffer, "box");
}

LogicalResult TMALoadOp::verify() {
  if (failed(verifyTMA(*this, getMap().getType(), getCoords().size(), getDst().getType(),
                       /*columnBlocks=*/true)))
    return failure();
  return checkConstantIndex(*this, getIndex(), getBarriers().getType().getCount(),
                            "a barrier index");
}

LogicalResult TMAStoreOp::verify() {
  Type element = getMap().getType().getElementType();
  if (getAdd() && !(element.isF32() || element.isF16() || element.isBF16()))
    return emitOpError("adds f32, f16 or bf16 elements, got ") << element;
  return verifyTMA(*this, getMap().getType(), getCoords().size(), getSrc().getType(),
                   /*columnBlocks=*/true);
}

LogicalResult TMAStoreWaitOp::verify() { return checkPending(*this, getPending()); }

//===----------------------------------------------------------------------===//
// Matrix multiplies
//===----------------------------------------------------------------------===//

/// M, N, K of acc (MxN) += a (MxK) · b (KxN), or an error.
static FailureOr<std::array<int64_t, 3>> dotShape(Operation *op, ArrayRef<int64_t> a,
                                                  ArrayRef<int64_t> b, ArrayRef<int64_t> acc) {
  if (a.size() != 2 || b.size() != 2 || acc.size() != 2 || a[1] != b[0] || a[0] != acc[0] ||
      b[1] != acc[1]) {
    op->emitOpError("expected MxK, KxN and MxN operands");
    return failure();
  }
  if (a[1] % 16) {
    op->emitOpError("expected K to be a multiple of 16, got ") << a[1];
    return failure();
  }
  return std::array<int64_t, 3>{a[0], b[1], a[1]};
}

static LogicalResult checkMmaElements(Operation *op, Type a, Type b) {
  if (!isMmaElement(a) || a != b)
    return op->emitOpError("expected bf16 or f16 operands of one type, got ")
           << a << " and " << b;
  return success();
}

LogicalResult MmaOp::verify() {
  auto a = getA().getType(), b = getB().getType(), acc = getAcc().getType();
  if (failed(checkMmaElements(*this, a.getElementType(), b.getElementType())))
    return failure();
  auto shape = dotShape(*this, a.getShape(), b.getShape(), acc.getShape());
  if (failed(shape))
    return failure();
  auto [m, n, k] = *shape;
  FailureOr<tilec::LinearLayout> accLayout = layoutOf(*this, getAcc(), "an accumulator");
  FailureOr<tilec::LinearLayout> aLayout = layoutOf(*this, getA(), "an A operand");
  FailureOr<tilec::LinearLayout> bLayout = layoutOf(*this, getB(), "a B operand");
  if (failed(accLayout) || failed(aLayout) || failed(bLayout))
    return failure();
  // The warp grid is the one whose accumulator layout `acc` has.
  int64_t warps = accLayout->numWarps();
  for (int64_t warpsM = 1; warpsM <= warps; warpsM *= 2) {
    int64_t warpsN = warps / warpsM;
    if (*accLayout != tilec::LinearLayout::mmaAccumulator(m, n, warpsM, warpsN))
      continue;
    if (*aLayout != tilec::LinearLayout::mmaOperandA(m, k, warpsM, warpsN))
      return emitOpError("expected A in the mma operand layout of the accumulator's warp grid [")
             << warpsM << ", " << warpsN << "]";
    if (*bLayout != tilec::LinearLayout::mmaOperandB(k, n, warpsM, warpsN))
      return emitOpError("expected B in the mma operand layout of the accumulator's warp grid [")
             << warpsM << ", " << warpsN << "]";
    return success();
  }
  return emitOpError("expected the accumulator in an mma.sync m16n8 layout, got ") << acc;
}

LogicalResult WarpgroupDotOp::inferReturnTypes(MLIRContext *context, std::optional<Location>,
                                               Adaptor adaptor, SmallVectorImpl<Type> &results) {
  Type acc = adaptor.getAcc().getType();
  if (auto token = dyn_cast<DotTokenType>(acc))
    results.push_back(token);
  else
    results.push_back(DotTokenType::get(context, cast<RankedTensorType>(acc)));
  return success();
}

RankedTensorType WarpgroupDotOp::getAccType() {
  return cast<DotTokenType>(getToken().getType()).getValueType();
}

WarpgroupDotOp WarpgroupDotOp::getChainedDot() {
  return isa<DotTokenType>(getAcc().getType()) ? getAcc().getDefiningOp<WarpgroupDotOp>()
                                               : WarpgroupDotOp();
}

LogicalResult WarpgroupDotOp::verify() {
  if (isa<DotTokenType>(getAcc().getType())) {
    // A chain adds onto accumulators in flight: only a dot's own token, used
    // by nothing else (its registers now hold this dot's sum).
    if (!getChainedDot())
      return emitOpError("expected a chained accumulator token to be a warpgroup_dot's");
    if (!getAcc().hasOneUse())
      return emitOpError("expected this dot to be the only use of the token it chains onto");
  }
  RankedTensorType acc = getAccType();
  auto b = getB().getType();
  if (!isa<SwizzledAttr>(b.getEncoding()))
    return emitOpError("expected B in a swizzled buffer, got ") << b;
  SmallVector<int64_t> aShape;
  Type aElement;
  if (auto aBuffer = dyn_cast<SharedMemoryType>(getA().getType())) {
    auto aSwizzle = dyn_cast<SwizzledAttr>(aBuffer.getEncoding());
    if (!aSwizzle || aSwizzle.getBytes() != 128)
      return emitOpError("expected A in a 128-byte-swizzled buffer or in registers, got ")
             << aBuffer;
    aShape.assign(aBuffer.getShape().begin(), aBuffer.getShape().end());
    aElement = aBuffer.getElementType();
    if (getTransposeA() && aShape.size() == 2)
      std::swap(aShape[0], aShape[1]);
  } else {
    if (getTransposeA())
      return emitOpError("expected A in shared memory with transpose_a");
    auto aTile = cast<RankedTensorType>(getA().getType());
    aShape.assign(aTile.getShape().begin(), aTile.getShape().end());
    aElement = aTile.getElementType();
  }
  if (failed(checkMmaElements(*this, aElement, b.getElementType())))
    return failure();
  SmallVector<int64_t> bShape(b.getShape());
  if (getTransposeB() && bShape.size() == 2)
    std::swap(bShape[0], bShape[1]);
  auto shape = dotShape(*this, aShape, bShape, acc.getShape());
  if (failed(shape))
    return failure();
  auto [m, n, k] = *shape;
  FailureOr<tilec::LinearLayout> accLayout = getLinearLayout(acc);
  if (failed(accLayout))
    return emitOpError("expected an accumulator with a distributed layout, got ") << acc;
  std::optional<WgmmaGrid> grid = wgmmaGridOf(*accLayout, m, n);
  if (!grid)
    return emitOpError("expected the accumulator in a wgmma layout, got ") << acc;
  int64_t blockN = n / grid->columns;
  if (blockN % 8 || blockN > 256)
    return emitOpError("expected each warpgroup's N to be a multiple of 8 up to 256, got ")
           << blockN;
  if (isa<RankedTensorType>(getA().getType())) {
    FailureOr<tilec::LinearLayout> aLayout = layoutOf(*this, getA(), "an A operand");
    if (failed(aLayout))
      return failure();
    if (*aLayout != tilec::LinearLayout::mmaOperandA(m, k, 4 * grid->warpgroupsM, grid->columns))
      return emitOpError("expected A in registers in the wgmma operand layout");
  }
  return success();
}

LogicalResult DotWaitOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                          Adaptor adaptor, SmallVectorImpl<Type> &results) {
  for (Value token : adaptor.getTokens())
    results.push_back(cast<DotTokenType>(token.getType()).getValueType());
  return success();
}

LogicalResult DotWaitOp::verify() { return checkPending(*this, getPending()); }

//===----------------------------------------------------------------------===//
// Warp roles and barriers
//===----------------------------------------------------------------------===//

LogicalResult WarpSpecializeOp::verify() {
  ArrayRef<int32_t> warps = getWarps(), registers = getRegisters();
  if (getRoles().empty())
    return emitOpError("expected at least one role");
  if (warps.size() != getRoles().size() || registers.size() != getRoles().size())
    return emitOpError("expected warps and registers for each of the ")
           << getRoles().size() << " roles";
  int64_t budget = 0;
  for (auto [w, r] : llvm::zip(warps, registers)) {
    if (w <= 0 || w % 4)
      return emitOpError("expected whole warpgroups (warps a positive multiple of 4), got ") << w;
    if (r < 24 || r > 256 || r % 8)
      return emitOpError("expected registers per thread a multiple of 8 in [24, 256], got ") << r;
    budget += int64_t{w} * 32 * r;
  }
  if (budget > 65536)
    return emitOpError("expected the roles' registers to fit 65536, got ") << budget;
  if ((*this)->getParentOfType<WarpSpecializeOp>())
    return emitOpError("expected no warp roles inside a warp role");
  return success();
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser, OperationState &result) {
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  SmallVector<int32_t> warps, registers;
  while (succeeded(parser.parseOptionalKeyword("role"))) {
    if (parser.parseKeyword("warps") || parser.parseEqual() ||
        parser.parseInteger(warps.emplace_back()) || parser.parseKeyword("registers") ||
        parser.parseEqual() || parser.parseInteger(registers.emplace_back()))
      return failure();
    Region *region = result.addRegion();
    if (parser.parseRegion(*region, /*arguments=*/{}))
      return failure();
    if (region->empty())
      region->emplaceBlock();
  }
  Builder &b = parser.getBuilder();
  result.addAttribute(getWarpsAttrName(result.name), b.getDenseI32ArrayAttr(warps));
  result.addAttribute(getRegistersAttrName(result.name), b.getDenseI32ArrayAttr(registers));
  return success();
}

void WarpSpecializeOp::print(OpAsmPrinter &printer) {
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                           {getWarpsAttrName(), getRegistersAttrName()});
  for (auto [region, w, r] : llvm::zip(getRoles(), getWarps(), getRegisters())) {
    printer.printNewline();
    printer << "  role warps = " << w << " registers = " << r << " ";
    printer.printRegion(region, /*printEntryBlockArgs=*/false);
  }
}

static LogicalResult verifyNamedBarrier(Operation *op, Value id, int32_t threads) {
  if (threads < 32 || threads > 1024 || threads % 32)
    return op->emitOpError("expected a multiple of 32 threads up to 1024, got ") << threads;
  return checkConstantIndex(op, id, 16, "a barrier id");
}

LogicalResult BarrierSyncOp::verify() { return verifyNamedBarrier(*this, getId(), getThreads()); }

LogicalResult BarrierArriveOp::verify() {
  return verifyNamedBarrier(*this, getId(), getThreads());
}
