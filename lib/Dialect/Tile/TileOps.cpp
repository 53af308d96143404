//===- TileOps.cpp - verifiers, builders, folds of the tile ops -----------===//

#include "tilec/Dialect/Tile/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace tilec::tile;

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/TileOps.cpp.inc"

/// Prints a shape as `128x64` for diagnostics.
static std::string shapeString(ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, "x");
  return text;
}

static bool isAxisOf(int64_t axis, int64_t rank) { return axis >= 0 && axis < rank; }

//===----------------------------------------------------------------------===//
// Grid queries
//===----------------------------------------------------------------------===//

static LogicalResult verifyGridAxis(Operation *op, int32_t axis) {
  if (!isAxisOf(axis, 3))
    return op->emitOpError("expected grid axis 0, 1 or 2, got ") << axis;
  return success();
}

LogicalResult ProgramIdOp::verify() { return verifyGridAxis(*this, getAxis()); }
LogicalResult NumProgramsOp::verify() { return verifyGridAxis(*this, getAxis()); }

//===----------------------------------------------------------------------===//
// Descriptors
//===----------------------------------------------------------------------===//

LogicalResult MakeDescOp::verify() {
  TensorDescType desc = getResult().getType();
  if (getShape().size() != desc.getRank() || getStrides().size() != desc.getRank())
    return emitOpError("expected ")
           << desc.getRank() << " shape and " << desc.getRank()
           << " stride operands (the block rank), got " << getShape().size() << " and "
           << getStrides().size();
  if (getBase().getType().getPointeeType() != desc.getElementType())
    return emitOpError("expected base pointee type ")
           << getBase().getType().getPointeeType()
           << " to match the descriptor element type " << desc.getElementType();
  return success();
}

/// `a` and `b` are the same type up to the encoding of tensors: the
/// distributed layouts that the GPU level (`tilegpu`) attaches to tiles do
/// not change what a tile op means.
static bool sameUpToEncoding(Type a, Type b) {
  auto ta = dyn_cast<RankedTensorType>(a), tb = dyn_cast<RankedTensorType>(b);
  if (ta && tb)
    return ta.getShape() == tb.getShape() && ta.getElementType() == tb.getElementType();
  return a == b;
}

/// Checks what block loads and stores share: one offset per dimension and a
/// tile of exactly the block type (up to its encoding).
static LogicalResult verifyBlockAccess(Operation *op, TensorDescType desc,
                                       size_t numOffsets, Type tile, StringRef what) {
  if (numOffsets != desc.getRank())
    return op->emitOpError("expected ")
           << desc.getRank() << " offsets (the block rank), got " << numOffsets;
  if (!sameUpToEncoding(tile, desc.getBlockType()))
    return op->emitOpError("expected ")
           << what << " of type " << desc.getBlockType() << " (the descriptor block), got "
           << tile;
  return success();
}

void LoadBlockOp::build(OpBuilder &builder, OperationState &state, Value desc,
                        ValueRange offsets) {
  auto descType = cast<TensorDescType>(desc.getType());
  build(builder, state, descType.getBlockType(), desc, offsets, PaddingOption::zero);
}

LogicalResult LoadBlockOp::verify() {
  return verifyBlockAccess(*this, getDesc().getType(), getOffsets().size(),
                           getResult().getType(), "result");
}

LogicalResult StoreBlockOp::verify() {
  return verifyBlockAccess(*this, getDesc().getType(), getOffsets().size(),
                           getValue().getType(), "value");
}

LogicalResult AtomicAddBlockOp::verify() {
  if (!getDesc().getType().getElementType().isF32())
    return emitOpError("expected a descriptor of f32 elements, got ")
           << getDesc().getType().getElementType();
  return verifyBlockAccess(*this, getDesc().getType(), getOffsets().size(),
                           getValue().getType(), "value");
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

LogicalResult AddPtrOp::verify() {
  auto ptrTensor = dyn_cast<RankedTensorType>(getPtr().getType());
  auto offsetTensor = dyn_cast<RankedTensorType>(getOffset().getType());
  if (!ptrTensor && offsetTensor)
    return emitOpError("expected a scalar offset for a scalar pointer");
  if (ptrTensor && offsetTensor && ptrTensor.getShape() != offsetTensor.getShape())
    return emitOpError("expected offsets of shape ")
           << shapeString(ptrTensor.getShape()) << " (the pointers' shape), got "
           << shapeString(offsetTensor.getShape());
  return success();
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  // ptr + 0 == ptr.
  if (matchPattern(adaptor.getOffset(), m_Zero()))
    return getPtr();
  return {};
}

LogicalResult LoadOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("expected a mask when a fill value ('other') is given");
  return success();
}

LogicalResult LoadScalarOp::verify() {
  if (getOther() && !getMask())
    return emitOpError("expected a mask when a fill value ('other') is given");
  return success();
}

LogicalResult LastArrivalOp::verify() {
  if (!getCounter().getType().getPointeeType().isInteger(32))
    return emitOpError("expected a pointer to an i32 counter, got ") << getCounter().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Making and reshaping tiles
//===----------------------------------------------------------------------===//

LogicalResult IotaOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getRank() != 1 || type.getDimSize(0) <= 0)
    return emitOpError("expected a non-empty 1-D result, got ") << type;
  return success();
}

void SplatOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int64_t> shape) {
  build(builder, state, RankedTensorType::get(shape, src.getType()), src);
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  // splat(constant) is a dense splat constant.
  Attribute scalar = adaptor.getSrc();
  if (!isa_and_nonnull<IntegerAttr, FloatAttr>(scalar))
    return {};
  return SplatElementsAttr::get(getResult().getType(), scalar);
}

LogicalResult BroadcastOp::verify() {
  RankedTensorType src = getSrc().getType(), result = getResult().getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("expected result element type ")
           << src.getElementType() << " (the source's), got " << result.getElementType();
  if (src.getRank() != result.getRank())
    return emitOpError("expected result of rank ")
           << src.getRank() << " (the source's), got " << result.getRank();
  for (auto [dim, pair] : llvm::enumerate(llvm::zip(src.getShape(), result.getShape()))) {
    auto [from, to] = pair;
    if (from != to && from != 1)
      return emitOpError("expected source dimension ")
             << dim << " to be 1 or " << to << ", got " << from;
  }
  return success();
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

void ExpandDimsOp::build(OpBuilder &builder, OperationState &state, Value src,
                         int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<int64_t> shape(srcType.getShape());
  if (isAxisOf(axis, srcType.getRank() + 1))
    shape.insert(shape.begin() + axis, 1);
  build(builder, state, srcType.clone(shape), src, axis);
}

LogicalResult ExpandDimsOp::verify() {
  RankedTensorType src = getSrc().getType();
  int32_t axis = getAxis();
  if (!isAxisOf(axis, src.getRank() + 1))
    return emitOpError("expected axis in [0, ") << src.getRank() << "], got " << axis;
  SmallVector<int64_t> shape(src.getShape());
  shape.insert(shape.begin() + axis, 1);
  RankedTensorType expected = src.clone(shape);
  if (!sameUpToEncoding(getResult().getType(), expected))
    return emitOpError("expected result type ") << expected << ", got "
                                                << getResult().getType();
  return success();
}

/// The permutation that applies `second` after `first`.
static SmallVector<int64_t> composePermutations(ArrayRef<int64_t> first,
                                                ArrayRef<int64_t> second) {
  SmallVector<int64_t> order;
  for (int64_t d : second)
    order.push_back(first[d]);
  return order;
}

static bool isIdentityPermutation(ArrayRef<int64_t> order) {
  for (auto [i, d] : llvm::enumerate(order))
    if (static_cast<int64_t>(i) != d)
      return false;
  return true;
}

static SmallVector<int64_t> permuteShape(ArrayRef<int64_t> shape, ArrayRef<int64_t> order) {
  SmallVector<int64_t> permuted;
  for (int64_t d : order)
    permuted.push_back(shape[d]);
  return permuted;
}

void TransOp::build(OpBuilder &builder, OperationState &state, Value src,
                    ArrayRef<int64_t> order) {
  auto srcType = cast<RankedTensorType>(src.getType());
  Type result = srcType;
  if (llvm::all_of(order, [&](int64_t d) { return isAxisOf(d, srcType.getRank()); }))
    result = srcType.clone(permuteShape(srcType.getShape(), order));
  build(builder, state, result, src, builder.getDenseI64ArrayAttr(order));
}

LogicalResult TransOp::verify() {
  RankedTensorType src = getSrc().getType();
  ArrayRef<int64_t> order = getOrder();
  llvm::SmallBitVector seen(src.getRank());
  bool isPermutation = static_cast<int64_t>(order.size()) == src.getRank();
  for (int64_t d : order) {
    if (!isPermutation || !isAxisOf(d, src.getRank()) || seen.test(d)) {
      isPermutation = false;
      break;
    }
    seen.set(d);
  }
  if (!isPermutation)
    return emitOpError("expected order to be a permutation of [0, ")
           << src.getRank() << ")";
  RankedTensorType expected = src.clone(permuteShape(src.getShape(), order));
  if (!sameUpToEncoding(getResult().getType(), expected))
    return emitOpError("expected result type ") << expected << ", got "
                                                << getResult().getType();
  return success();
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  if (isIdentityPermutation(getOrder()))
    return getSrc();
  // trans(trans(x)) folds in place to one trans of x (or to x itself).
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int64_t> order = composePermutations(inner.getOrder(), getOrder());
    if (isIdentityPermutation(order))
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    setOrder(order);
    return getResult();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

void ReshapeOp::build(OpBuilder &builder, OperationState &state, Value src,
                      ArrayRef<int64_t> shape) {
  build(builder, state, cast<RankedTensorType>(src.getType()).clone(shape), src);
}

LogicalResult ReshapeOp::verify() {
  RankedTensorType src = getSrc().getType(), result = getResult().getType();
  if (src.getElementType() != result.getElementType())
    return emitOpError("expected result element type ")
           << src.getElementType() << " (the source's), got " << result.getElementType();
  if (src.getNumElements() != result.getNumElements())
    return emitOpError("expected a result of ")
           << src.getNumElements() << " elements (the source's), got "
           << result.getNumElements();
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  // reshape(reshape(x)) is one reshape of x.
  if (auto inner = getSrc().getDefiningOp<ReshapeOp>()) {
    if (inner.getSrc().getType() == getResult().getType())
      return inner.getSrc();
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getResult().getType(),
                                  splat.getSplatValue<Attribute>());
  return {};
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

void CastOp::build(OpBuilder &builder, OperationState &state, Value src,
                   Type elementType) {
  Type result = elementType;
  if (auto tensor = dyn_cast<RankedTensorType>(src.getType()))
    result = tensor.clone(elementType);
  build(builder, state, result, src);
}

LogicalResult CastOp::verify() {
  Type src = getSrc().getType(), result = getResult().getType();
  auto srcTensor = dyn_cast<RankedTensorType>(src);
  auto resultTensor = dyn_cast<RankedTensorType>(result);
  if (static_cast<bool>(srcTensor) != static_cast<bool>(resultTensor) ||
      (srcTensor && srcTensor.getShape() != resultTensor.getShape()))
    return emitOpError("expected source and result of the same shape, got ")
           << src << " and " << result;
  return success();
}

/// True when every value of `narrow` survives a cast to `wide` and back.
static bool isExactFloatWidening(Type narrow, Type wide) {
  auto from = dyn_cast<FloatType>(narrow);
  auto to = dyn_cast<FloatType>(wide);
  if (!from || !to || from.getWidth() >= to.getWidth())
    return false;
  // Every IEEE-like format up to f32 embeds in a wider one of at least as
  // many exponent and mantissa bits; bf16 and f16 both embed in f32.
  return to.getFPMantissaWidth() >= from.getFPMantissaWidth();
}

OpFoldResult CastOp::fold(FoldAdaptor) {
  if (getSrc().getType() == getResult().getType())
    return getSrc();
  // cast(cast(x : A) : B) : A with an exact widening A -> B is x.
  if (auto inner = getSrc().getDefiningOp<CastOp>()) {
    Value original = inner.getSrc();
    if (original.getType() == getResult().getType() &&
        isExactFloatWidening(getElementTypeOrSelf(original.getType()),
                             getElementTypeOrSelf(getSrc().getType())))
      return original;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Compute
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(), c = getC().getType();
  if (a.getRank() != 2 || b.getRank() != 2 || c.getRank() != 2)
    return emitOpError("expected 2-D operands, got ranks ")
           << a.getRank() << ", " << b.getRank() << " and " << c.getRank();
  Type elem = a.getElementType();
  if (elem != b.getElementType())
    return emitOpError("expected A and B of the same element type, got ")
           << elem << " and " << b.getElementType();
  if (!elem.isBF16() && !elem.isF16() && !elem.isF32())
    return emitOpError("expected bf16, f16 or f32 inputs, got ") << elem;
  if (!c.getElementType().isF32())
    return emitOpError("expected an f32 accumulator, got ") << c.getElementType();
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("expected the columns of A (")
           << a.getDimSize(1) << ") to equal the rows of B (" << b.getDimSize(0) << ")";
  if (c.getDimSize(0) != a.getDimSize(0) || c.getDimSize(1) != b.getDimSize(1))
    return emitOpError("expected an accumulator of shape ")
           << a.getDimSize(0) << "x" << b.getDimSize(1) << ", got "
           << shapeString(c.getShape());
  return success();
}

/// The type left after reducing `src` along `axis`: the tensor without that
/// dimension, or the element type when `src` is 1-D.
static Type reducedType(RankedTensorType src, int32_t axis) {
  if (src.getRank() == 1)
    return src.getElementType();
  SmallVector<int64_t> shape(src.getShape());
  shape.erase(shape.begin() + axis);
  return src.clone(shape);
}

void ReduceOp::build(OpBuilder &builder, OperationState &state, ReduceKind kind,
                     Value src, int32_t axis) {
  auto srcType = cast<RankedTensorType>(src.getType());
  Type result = isAxisOf(axis, srcType.getRank()) ? reducedType(srcType, axis)
                                                  : srcType.getElementType();
  build(builder, state, result, kind, src, axis);
}

LogicalResult ReduceOp::verify() {
  RankedTensorType src = getSrc().getType();
  if (!isAxisOf(getAxis(), src.getRank()))
    return emitOpError("expected axis in [0, ") << src.getRank() << "), got " << getAxis();
  Type expected = reducedType(src, getAxis());
  if (!sameUpToEncoding(getResult().getType(), expected))
    return emitOpError("expected result type ") << expected << ", got "
                                                << getResult().getType();
  return success();
}

double OnlineSoftmaxOp::getLog2Scale() {
  return getScale().convertToDouble() * M_LOG2E;
}

LogicalResult OnlineSoftmaxOp::verify() {
  if (getScores().empty())
    return emitOpError("expected at least one score tile");
  if (getP().size() != getScores().size())
    return emitOpError("expected one probability tile per score tile, got ")
           << getP().size() << " for " << getScores().size();
  int64_t rows = cast<RankedTensorType>(getScores()[0].getType()).getDimSize(0);
  for (auto [i, scores] : llvm::enumerate(getScores().getTypes())) {
    auto type = cast<RankedTensorType>(scores);
    if (type.getRank() != 2)
      return emitOpError("expected 2-D scores, got rank ") << type.getRank();
    if (type.getDimSize(0) != rows)
      return emitOpError("expected every score part to have ")
             << rows << " rows, part " << i << " has " << type.getDimSize(0);
    if (getP()[i].getType() != type)
      return emitOpError("expected probabilities of their scores' type ") << type << ", got "
                                                                           << getP()[i].getType();
  }
  RankedTensorType m = getM().getType();
  if (m.getRank() != 1 || m.getDimSize(0) != rows)
    return emitOpError("expected a running max of shape ")
           << rows << " (one per score row), got " << shapeString(m.getShape());
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale) || scale <= 0)
    return emitOpError("expected a positive finite scale, got ") << scale;
  if (std::optional<APFloat> threshold = getRescaleThreshold()) {
    double tau = threshold->convertToDouble();
    if (!std::isfinite(tau) || tau < 0)
      return emitOpError("expected a finite rescale_threshold of at least 0, got ") << tau;
  }
  return success();
}

LogicalResult ScaleRowsOp::verify() {
  RankedTensorType x = getX().getType(), factor = getFactor().getType();
  if (x.getRank() != 2)
    return emitOpError("expected a 2-D tile to scale, got rank ") << x.getRank();
  if (factor.getRank() != 1 || factor.getDimSize(0) != x.getDimSize(0))
    return emitOpError("expected one factor per row (shape ")
           << x.getDimSize(0) << "), got " << shapeString(factor.getShape());
  return success();
}

/// `%s0, …, %m scale = c attr-dict : type(s0), …, type(m)`: the scores'
/// parts, then the running max (the last operand and type).
ParseResult OnlineSoftmaxOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<Type> types;
  FloatAttr scale;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands) || parser.parseKeyword("scale") || parser.parseEqual() ||
      parser.parseAttribute(scale, Float32Type::get(parser.getContext())) ||
      parser.parseOptionalAttrDict(result.attributes) || parser.parseColonTypeList(types))
    return failure();
  if (operands.size() < 2)
    return parser.emitError(loc, "expected the scores and the running max");
  if (types.size() != operands.size())
    return parser.emitError(loc, "expected ") << operands.size() << " types, got " << types.size();
  result.addAttribute(getScaleAttrName(result.name), scale);
  if (parser.resolveOperands(operands, types, loc, result.operands))
    return failure();
  Type m = types.back();
  result.addTypes(m);
  result.addTypes(ArrayRef<Type>(types).drop_back());
  result.addTypes(m);
  return success();
}

void OnlineSoftmaxOp::print(OpAsmPrinter &p) {
  p << ' ' << getScores() << ", " << getM() << " scale = ";
  p.printAttributeWithoutType(getScaleAttr());
  p.printOptionalAttrDict((*this)->getAttrs(), {getScaleAttrName()});
  p << " : " << getScores().getTypes() << ", " << getM().getType();
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

namespace {

/// A shape-only op (broadcast, expand_dims, reshape, trans) of a `tile.splat` is a splat
/// of the result shape: every element is still the same scalar.
template <typename ShapeOp>
struct ShapeOpOfSplat : OpRewritePattern<ShapeOp> {
  using OpRewritePattern<ShapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ShapeOp op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().template getDefiningOp<SplatOp>();
    if (!splat)
      return rewriter.notifyMatchFailure(op, "source is not a tile.splat");
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getResult().getType(), splat.getSrc());
    return success();
  }
};

/// reduce(splat(x)) is x for max and min, and x * n for a sum over n elements;
/// the result is a splat again when the source had more than one dimension.
struct ReduceOfSplat : OpRewritePattern<ReduceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReduceOp op, PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return rewriter.notifyMatchFailure(op, "source is not a tile.splat");
    Location loc = op.getLoc();
    Value scalar = splat.getSrc();
    if (op.getKind() == ReduceKind::sum) {
      int64_t count = op.getSrc().getType().getDimSize(op.getAxis());
      Type type = scalar.getType();
      TypedAttr countAttr = isa<FloatType>(type)
                                ? TypedAttr(rewriter.getFloatAttr(type, count))
                                : TypedAttr(rewriter.getIntegerAttr(type, count));
      Value n = arith::ConstantOp::create(rewriter, loc, countAttr);
      scalar = isa<FloatType>(type) ? Value(arith::MulFOp::create(rewriter, loc, scalar, n))
                                    : Value(arith::MulIOp::create(rewriter, loc, scalar, n));
    }
    if (auto tensor = dyn_cast<RankedTensorType>(op.getResult().getType()))
      rewriter.replaceOpWithNewOp<SplatOp>(op, tensor, scalar);
    else
      rewriter.replaceOp(op, scalar);
    return success();
  }
};

} // namespace

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<ShapeOpOfSplat<BroadcastOp>>(context);
}

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ShapeOpOfSplat<ExpandDimsOp>>(context);
}

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ShapeOpOfSplat<ReshapeOp>>(context);
}

void TransOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<ShapeOpOfSplat<TransOp>>(context);
}

void ReduceOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<ReduceOfSplat>(context);
}

Value tilec::tile::buildCombine(OpBuilder &builder, Location loc, ReduceKind kind, Value a,
                                Value b) {
  bool isFloat = isa<FloatType>(a.getType());
  switch (kind) {
  case ReduceKind::sum:
    return isFloat ? Value(arith::AddFOp::create(builder, loc, a, b))
                   : Value(arith::AddIOp::create(builder, loc, a, b));
  case ReduceKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(builder, loc, a, b))
                   : Value(arith::MaxSIOp::create(builder, loc, a, b));
  case ReduceKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(builder, loc, a, b))
                   : Value(arith::MinSIOp::create(builder, loc, a, b));
  }
  return a;
}
