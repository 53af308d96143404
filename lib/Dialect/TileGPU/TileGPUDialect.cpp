//===- TileGPUDialect.cpp - the tilegpu dialect, its attributes and types -===//

#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tilec::tilegpu;
using tilec::Coords;

#include "tilec/Dialect/TileGPU/TileGPUDialect.cpp.inc"
#include "tilec/Dialect/TileGPU/TileGPUEnums.cpp.inc"
#include "tilec/Dialect/TileGPU/TileGPUAttrInterfaces.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUTypes.cpp.inc"

namespace {
/// Prints general layouts once at the top of the module (`#linear`,
/// `#linear1`, ...) and by name in every tile type.
struct TileGPUOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;
  AliasResult getAlias(Attribute attr, raw_ostream &os) const override {
    if (isa<LinearLayoutAttr>(attr)) {
      os << "linear";
      return AliasResult::OverridableAlias;
    }
    return AliasResult::NoAlias;
  }
};
} // namespace

Operation *TileGPUDialect::materializeConstant(OpBuilder &builder, Attribute value, Type type,
                                               Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
}

void TileGPUDialect::initialize() {
  addInterfaces<TileGPUOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilec/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/TileGPU/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/TileGPU/TileGPUOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Layouts: what every distributed layout attribute shares
//===----------------------------------------------------------------------===//

/// Fails with `message` in `whyNot`.
static FailureOr<tilec::LinearLayout> notPlaced(std::string *whyNot, const std::string &message) {
  if (whyNot)
    *whyNot = message;
  return failure();
}

static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  for (int64_t d : shape)
    text += (text.empty() ? "" : "x") + std::to_string(d);
  return text;
}

static bool allPowersOfTwo(ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t v) { return v > 0 && llvm::isPowerOf2_64(v); });
}

/// A tensor whose encoding is `layout`: the layout places a tile of its shape
/// and every element of it is held by some thread.
/// The largest tile a distributed layout describes: 2^24 elements (64 Ki
/// per thread at 8 warps, far past any register file), so that verifying
/// a layout, which visits its elements, stays cheap.
static constexpr int64_t kMaxLayoutElementsLog2 = 24;

static LogicalResult verifyLayoutEncoding(DistributedLayoutAttr layout, ArrayRef<int64_t> shape,
                                          function_ref<InFlightDiagnostic()> emitError) {
  int64_t log2Elements = 0;
  for (int64_t d : shape)
    log2Elements += d > 0 ? llvm::Log2_64_Ceil(d) : 0;
  if (log2Elements > kMaxLayoutElementsLog2)
    return emitError() << "expected a tile of at most 2^" << kMaxLayoutElementsLog2
                       << " elements for a distributed layout, got " << shapeString(shape);
  std::string whyNot;
  FailureOr<tilec::LinearLayout> placed = layout.toLinearLayout(shape, &whyNot);
  if (failed(placed))
    return emitError() << "expected a layout that places a " << shapeString(shape)
                       << " tile: " << whyNot;
  if (!placed->coversShape())
    return emitError() << "expected the layout to hold every element of the "
                       << shapeString(shape) << " tile";
  return success();
}

/// An mma-family layout needs a 2-D tile of power-of-two sides at least
/// `minRows` x `minCols`.
static LogicalResult checkMatrixShape(ArrayRef<int64_t> shape, int64_t minRows, int64_t minCols,
                                      std::string *whyNot) {
  if (shape.size() != 2)
    return LogicalResult(notPlaced(whyNot, "mma layouts hold 2-D tiles"));
  if (!allPowersOfTwo(shape) || shape[0] < minRows || shape[1] < minCols)
    return LogicalResult(notPlaced(whyNot, "sides must be powers of two, at least " +
                                               std::to_string(minRows) + "x" +
                                               std::to_string(minCols)));
  return success();
}

#define TILEGPU_VERIFY_ENCODING(Attr)                                                           \
  LogicalResult Attr::verifyEncoding(ArrayRef<int64_t> shape, Type,                             \
                                     function_ref<InFlightDiagnostic()> emitError) const {      \
    return verifyLayoutEncoding(cast<DistributedLayoutAttr>(*this), shape, emitError);          \
  }
TILEGPU_VERIFY_ENCODING(LinearLayoutAttr)
TILEGPU_VERIFY_ENCODING(BlockedLayoutAttr)
TILEGPU_VERIFY_ENCODING(MmaLayoutAttr)
TILEGPU_VERIFY_ENCODING(MmaOperandLayoutAttr)
TILEGPU_VERIFY_ENCODING(WgmmaLayoutAttr)
TILEGPU_VERIFY_ENCODING(WgmmaOperandLayoutAttr)
#undef TILEGPU_VERIFY_ENCODING

FailureOr<tilec::LinearLayout> tilec::tilegpu::getLinearLayout(RankedTensorType type) {
  auto layout = dyn_cast_or_null<DistributedLayoutAttr>(type.getEncoding());
  if (!layout)
    return failure();
  return layout.toLinearLayout(type.getShape(), nullptr);
}

RankedTensorType tilec::tilegpu::withLayout(RankedTensorType type, const LinearLayout &layout) {
  return RankedTensorType::get(type.getShape(), type.getElementType(),
                               LinearLayoutAttr::get(type.getContext(), layout));
}

//===----------------------------------------------------------------------===//
// #tilegpu.linear
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> flatten(const std::vector<Coords> &bases) {
  SmallVector<int64_t> flat;
  for (const Coords &basis : bases)
    flat.append(basis.begin(), basis.end());
  return flat;
}

static std::vector<Coords> unflatten(ArrayRef<int64_t> flat, unsigned rank) {
  std::vector<Coords> bases;
  for (size_t i = 0; rank && i < flat.size(); i += rank)
    bases.emplace_back(flat.begin() + i, flat.begin() + i + rank);
  return bases;
}

LinearLayoutAttr LinearLayoutAttr::get(MLIRContext *context, const tilec::LinearLayout &layout) {
  return Base::get(context, static_cast<unsigned>(layout.rank()), flatten(layout.regs()),
                   flatten(layout.lanes()), flatten(layout.warps()));
}

LogicalResult LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       unsigned rank, ArrayRef<int64_t> regBases,
                                       ArrayRef<int64_t> laneBases, ArrayRef<int64_t> warpBases) {
  if (rank == 0)
    return emitError() << "expected bases of rank 1 or more";
  if (warpBases.size() / rank > 5)
    return emitError() << "expected at most 5 warp bases (32 warps), got " << warpBases.size() / rank;
  if (regBases.size() / rank > 8)
    return emitError() << "expected at most 8 register bases (256 elements per thread), got "
                       << regBases.size() / rank;
  for (ArrayRef<int64_t> flat : {regBases, laneBases, warpBases})
    if (flat.size() % rank)
      return emitError() << "expected every basis to have " << rank << " coordinates";
  if (laneBases.size() / rank != 5)
    return emitError() << "expected 5 lane bases (32 lanes), got " << laneBases.size() / rank;
  for (ArrayRef<int64_t> flat : {regBases, laneBases, warpBases})
    if (llvm::any_of(flat, [](int64_t c) { return c < 0; }))
      return emitError() << "expected non-negative basis coordinates";
  return success();
}

FailureOr<tilec::LinearLayout> LinearLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                                std::string *whyNot) const {
  if (shape.size() != getRank())
    return notPlaced(whyNot, "the bases have " + std::to_string(getRank()) + " coordinates");
  tilec::LinearLayout layout(std::vector<int64_t>(shape.begin(), shape.end()),
                             unflatten(getRegBases(), getRank()),
                             unflatten(getLaneBases(), getRank()),
                             unflatten(getWarpBases(), getRank()));
  for (const auto *bases : {&layout.regs(), &layout.lanes(), &layout.warps()})
    for (const Coords &basis : *bases)
      for (size_t d = 0; d < shape.size(); ++d)
        if (basis[d] >= shape[d])
          return notPlaced(whyNot, "a basis points outside the tile");
  return layout;
}

/// `[[a, b], [c, d], ...]` of `rank`-sized bases (rank 0: take the first's).
static ParseResult parseBases(AsmParser &parser, SmallVectorImpl<int64_t> &flat, unsigned &rank) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    SmallVector<int64_t> basis;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
          return parser.parseInteger(basis.emplace_back());
        }))
      return failure();
    if (rank == 0)
      rank = basis.size();
    if (basis.size() != rank)
      return parser.emitError(loc) << "expected every basis to have " << rank << " coordinates";
    flat.append(basis);
    return success();
  });
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> regs, lanes, warps;
  unsigned rank = 0;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseKeyword("reg") || parser.parseEqual() ||
      parseBases(parser, regs, rank) || parser.parseComma() || parser.parseKeyword("lane") ||
      parser.parseEqual() || parseBases(parser, lanes, rank) || parser.parseComma() ||
      parser.parseKeyword("warp") || parser.parseEqual() || parseBases(parser, warps, rank) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), rank, regs,
                    lanes, warps);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  auto printBases = [&](StringRef name, ArrayRef<int64_t> flat) {
    printer << name << " = [";
    for (size_t i = 0; i < flat.size(); i += getRank()) {
      printer << (i ? ", [" : "[");
      llvm::interleaveComma(flat.slice(i, getRank()), printer);
      printer << "]";
    }
    printer << "]";
  };
  printer << "<";
  printBases("reg", getRegBases());
  printer << ", ";
  printBases("lane", getLaneBases());
  printer << ", ";
  printBases("warp", getWarpBases());
  printer << ">";
}

//===----------------------------------------------------------------------===//
// #tilegpu.blocked
//===----------------------------------------------------------------------===//

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        ArrayRef<int64_t> sizePerThread,
                                        ArrayRef<int64_t> threadsPerWarp,
                                        ArrayRef<int64_t> warpsPerCTA, ArrayRef<int64_t> order) {
  size_t rank = sizePerThread.size();
  if (threadsPerWarp.size() != rank || warpsPerCTA.size() != rank || order.size() != rank)
    return emitError() << "expected size_per_thread, threads, warps and order of one rank";
  if (!allPowersOfTwo(sizePerThread) || !allPowersOfTwo(threadsPerWarp) ||
      !allPowersOfTwo(warpsPerCTA))
    return emitError() << "expected powers of two in size_per_thread, threads and warps";
  int64_t lanes = 1;
  for (int64_t t : threadsPerWarp)
    lanes *= t;
  if (lanes != 32)
    return emitError() << "expected threads to multiply to 32, got " << lanes;
  // Bounded before anything multiplies them out (a block has at most 32
  // warps; a thread holds at most 256 elements of a tile, the lowering's
  // bound).
  int64_t log2Warps = 0, log2Sizes = 0;
  for (auto [size, warps] : llvm::zip(sizePerThread, warpsPerCTA)) {
    log2Sizes += llvm::Log2_64(size);
    log2Warps += llvm::Log2_64(warps);
  }
  if (log2Warps > 5)
    return emitError() << "expected warps to multiply to at most 32 (1024 threads)";
  if (log2Sizes > 8)
    return emitError() << "expected size_per_thread to multiply to at most 256";
  SmallVector<int64_t> sorted(order);
  llvm::sort(sorted);
  for (size_t i = 0; i < rank; ++i)
    if (sorted[i] != static_cast<int64_t>(i))
      return emitError() << "expected order to be a permutation of the dimensions";
  return success();
}

FailureOr<tilec::LinearLayout> BlockedLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                                 std::string *whyNot) const {
  if (shape.size() != getOrder().size())
    return notPlaced(whyNot, "the layout has rank " + std::to_string(getOrder().size()));
  if (!allPowersOfTwo(shape))
    return notPlaced(whyNot, "blocked layouts hold tiles of power-of-two sides");
  auto vec = [](ArrayRef<int64_t> a) { return std::vector<int64_t>(a.begin(), a.end()); };
  return tilec::LinearLayout::blocked(vec(shape), vec(getSizePerThread()),
                                      vec(getThreadsPerWarp()), vec(getWarpsPerCTA()),
                                      vec(getOrder()));
}

//===----------------------------------------------------------------------===//
// #tilegpu.mma, #tilegpu.mma_operand, #tilegpu.wgmma, #tilegpu.wgmma_operand
//===----------------------------------------------------------------------===//

static LogicalResult verifyWarpGrid(function_ref<InFlightDiagnostic()> emitError,
                                    unsigned warpsM, unsigned warpsN) {
  if (!allPowersOfTwo({warpsM, warpsN}))
    return emitError() << "expected powers of two in the warp grid, got [" << warpsM << ", "
                       << warpsN << "]";
  if (uint64_t{warpsM} * warpsN > 32)
    return emitError() << "expected at most 32 warps (1024 threads) in the warp grid, got ["
                       << warpsM << ", " << warpsN << "]";
  return success();
}

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    unsigned warpsM, unsigned warpsN) {
  return verifyWarpGrid(emitError, warpsM, warpsN);
}

FailureOr<tilec::LinearLayout> MmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                             std::string *whyNot) const {
  if (failed(checkMatrixShape(shape, 16, 8, whyNot)))
    return failure();
  return tilec::LinearLayout::mmaAccumulator(shape[0], shape[1], getWarpsM(), getWarpsN());
}

LogicalResult MmaOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                           unsigned index, unsigned warpsM, unsigned warpsN) {
  if (index > 1)
    return emitError() << "expected operand index 0 (A) or 1 (B), got " << index;
  return verifyWarpGrid(emitError, warpsM, warpsN);
}

FailureOr<tilec::LinearLayout> MmaOperandLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                                    std::string *whyNot) const {
  if (getIndex() == 0) {
    if (failed(checkMatrixShape(shape, 16, 16, whyNot)))
      return failure();
    return tilec::LinearLayout::mmaOperandA(shape[0], shape[1], getWarpsM(), getWarpsN());
  }
  if (failed(checkMatrixShape(shape, 16, 8, whyNot)))
    return failure();
  return tilec::LinearLayout::mmaOperandB(shape[0], shape[1], getWarpsM(), getWarpsN());
}

static LogicalResult verifyWarpgroups(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned warpgroups, unsigned columns) {
  if (!allPowersOfTwo({warpgroups}))
    return emitError() << "expected a power of two of warpgroups, got " << warpgroups;
  if (!allPowersOfTwo({columns}))
    return emitError() << "expected a power of two of column blocks, got " << columns;
  if (uint64_t{warpgroups} * columns > 8)
    return emitError() << "expected at most 8 warpgroups (1024 threads), got " << warpgroups
                       << " x " << columns;
  return success();
}

LogicalResult WgmmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                      unsigned warpgroups, unsigned columns) {
  return verifyWarpgroups(emitError, warpgroups, columns);
}

FailureOr<tilec::LinearLayout> WgmmaLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape,
                                                               std::string *whyNot) const {
  if (failed(checkMatrixShape(shape, 64 * getWarpgroups(), 8 * getColumns(), whyNot)))
    return failure();
  return tilec::LinearLayout::wgmmaAccumulator(shape[0], shape[1], getWarpgroups(), getColumns());
}

LogicalResult WgmmaOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                             unsigned warpgroups, unsigned columns) {
  return verifyWarpgroups(emitError, warpgroups, columns);
}

FailureOr<tilec::LinearLayout>
WgmmaOperandLayoutAttr::toLinearLayout(ArrayRef<int64_t> shape, std::string *whyNot) const {
  if (failed(checkMatrixShape(shape, 64 * getWarpgroups(), 16, whyNot)))
    return failure();
  return tilec::LinearLayout::mmaOperandA(shape[0], shape[1], 4 * getWarpgroups(), getColumns());
}

//===----------------------------------------------------------------------===//
// Shared-memory encodings
//===----------------------------------------------------------------------===//

LogicalResult SwizzledAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned bytes) {
  if (bytes != 32 && bytes != 64 && bytes != 128)
    return emitError() << "expected a swizzle of 32, 64 or 128 bytes, got " << bytes;
  return success();
}

LogicalResult PaddedAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned bytes) {
  if (bytes % 16)
    return emitError() << "expected row padding of a multiple of 16 bytes, got " << bytes;
  return success();
}

//===----------------------------------------------------------------------===//
// Types with a shape: `!tilegpu.smem<2x64x128xbf16, #enc>`, `!tilegpu.tensor_map<...>`
//===----------------------------------------------------------------------===//

static ParseResult parseShapedWithEncoding(AsmParser &parser, SmallVectorImpl<int64_t> &shape,
                                           Type &elementType, Attribute &encoding) {
  return failure(parser.parseLess() ||
                 parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                           /*withTrailingX=*/true) ||
                 parser.parseType(elementType) || parser.parseComma() ||
                 parser.parseAttribute(encoding) || parser.parseGreater());
}

static void printShapedWithEncoding(AsmPrinter &printer, ArrayRef<int64_t> shape,
                                    Type elementType, Attribute encoding) {
  printer << "<";
  for (int64_t d : shape)
    printer << d << "x";
  printer << elementType << ", " << encoding << ">";
}

static int64_t elementBytes(Type elementType) {
  return (elementType.getIntOrFloatBitWidth() + 7) / 8;
}

static LogicalResult verifyShapedElements(function_ref<InFlightDiagnostic()> emitError,
                                          ArrayRef<int64_t> shape, Type elementType) {
  if (shape.empty() || llvm::any_of(shape, [](int64_t d) { return d <= 0; }))
    return emitError() << "expected a non-empty static shape of positive sizes";
  if (!elementType.isIntOrFloat() || elementType.getIntOrFloatBitWidth() % 8)
    return emitError() << "expected an integer or float element type of whole bytes, got "
                       << elementType;
  return success();
}

/// `<SHAPE x TYPE, ENCODING>` into a `ShapedType` (smem, tensor map), verified.
template <typename ShapedType>
static Type parseShapedType(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  Attribute encoding;
  SMLoc loc = parser.getCurrentLocation();
  if (parseShapedWithEncoding(parser, shape, elementType, encoding))
    return {};
  return ShapedType::getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                                shape, elementType, encoding);
}

Type SharedMemoryType::parse(AsmParser &parser) {
  return parseShapedType<SharedMemoryType>(parser);
}

void SharedMemoryType::print(AsmPrinter &printer) const {
  printShapedWithEncoding(printer, getShape(), getElementType(), getEncoding());
}

LogicalResult SharedMemoryType::verify(function_ref<InFlightDiagnostic()> emitError,
                                       ArrayRef<int64_t> shape, Type elementType,
                                       Attribute encoding) {
  if (failed(verifyShapedElements(emitError, shape, elementType)))
    return failure();
  int64_t rowBytes = shape.back() * elementBytes(elementType);
  if (rowBytes % 16)
    return emitError() << "expected rows of a multiple of 16 bytes, got " << rowBytes;
  if (auto swizzled = dyn_cast<SwizzledAttr>(encoding)) {
    if (rowBytes % swizzled.getBytes())
      return emitError() << "expected rows of a multiple of the " << swizzled.getBytes()
                         << "-byte swizzle, got " << rowBytes << " bytes";
    if (shape.size() < 2 || shape[shape.size() - 2] % 8)
      return emitError() << "expected a swizzled buffer of whole 8-row atoms";
    return success();
  }
  if (!isa<PaddedAttr>(encoding))
    return emitError() << "expected a shared-memory encoding (#tilegpu.swizzled or "
                          "#tilegpu.padded), got "
                       << encoding;
  return success();
}

SharedMemoryType SharedMemoryType::getSlotType() const {
  return SharedMemoryType::get(getContext(), getShape().drop_front(), getElementType(),
                               getEncoding());
}

int64_t SharedMemoryType::getRowBytes() const {
  return getShape().back() * elementBytes(getElementType());
}

int64_t SharedMemoryType::getSizeInBytes() const {
  int64_t rows = 1;
  for (int64_t d : getShape().drop_back())
    rows *= d;
  int64_t padding = 0;
  if (auto padded = dyn_cast<PaddedAttr>(getEncoding()))
    padding = padded.getBytes();
  return rows * (getRowBytes() + padding);
}

Type TensorMapType::parse(AsmParser &parser) { return parseShapedType<TensorMapType>(parser); }

void TensorMapType::print(AsmPrinter &printer) const {
  printShapedWithEncoding(printer, getBoxShape(), getElementType(), getEncoding());
}

LogicalResult TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<int64_t> boxShape, Type elementType,
                                    Attribute encoding) {
  if (failed(verifyShapedElements(emitError, boxShape, elementType)))
    return failure();
  if (boxShape.size() > 5 || llvm::any_of(boxShape, [](int64_t d) { return d > 256; }))
    return emitError() << "expected a TMA box of at most 5 dimensions of at most 256";
  int64_t innerBytes = boxShape.back() * elementBytes(elementType);
  if (auto swizzled = dyn_cast<SwizzledAttr>(encoding)) {
    if (innerBytes != swizzled.getBytes())
      return emitError() << "expected the box's inner dimension to span the "
                         << swizzled.getBytes() << "-byte swizzle, got " << innerBytes
                         << " bytes";
    return success();
  }
  auto padded = dyn_cast<PaddedAttr>(encoding);
  if (!padded || padded.getBytes() != 0)
    return emitError() << "expected #tilegpu.swizzled or #tilegpu.padded<0> for a TMA box";
  if (innerBytes % 16)
    return emitError() << "expected the box's inner dimension to be a multiple of 16 bytes";
  return success();
}

LogicalResult MBarrierType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   unsigned count) {
  if (count == 0)
    return emitError() << "expected at least one mbarrier";
  return success();
}
