//===- TileDialect.cpp - the tile dialect and its types -------------------===//

#include "tilec/Dialect/Tile/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilec::tile;

#include "tilec/Dialect/Tile/TileDialect.cpp.inc"
#include "tilec/Dialect/Tile/TileEnums.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilec/Dialect/Tile/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilec/Dialect/Tile/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

//===----------------------------------------------------------------------===//
// PointerType
//===----------------------------------------------------------------------===//

LogicalResult PointerType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  Type pointeeType) {
  if (!isa<IntegerType, FloatType>(pointeeType))
    return emitError() << "expected pointee type to be an integer or float type, got "
                       << pointeeType;
  return success();
}

//===----------------------------------------------------------------------===//
// TensorDescType: `!tile.desc<64x128xbf16>`
//===----------------------------------------------------------------------===//

Type TensorDescType::parse(AsmParser &parser) {
  SmallVector<int64_t> shape;
  Type elementType;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() ||
      parser.parseDimensionList(shape, /*allowDynamic=*/false,
                                /*withTrailingX=*/true) ||
      parser.parseType(elementType) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(), shape,
                    elementType);
}

void TensorDescType::print(AsmPrinter &printer) const {
  printer << '<';
  for (int64_t dim : getBlockShape())
    printer << dim << 'x';
  printer << getElementType() << '>';
}

LogicalResult TensorDescType::verify(function_ref<InFlightDiagnostic()> emitError,
                                     ArrayRef<int64_t> blockShape, Type elementType) {
  if (blockShape.empty())
    return emitError() << "expected a block of rank 1 or more";
  for (int64_t dim : blockShape)
    if (dim <= 0)
      return emitError() << "expected positive block dimensions";
  if (!isa<IntegerType, FloatType>(elementType))
    return emitError() << "expected descriptor element type to be an integer or float type, got "
                       << elementType;
  return success();
}

RankedTensorType TensorDescType::getBlockType() const {
  return RankedTensorType::get(getBlockShape(), getElementType());
}

//===----------------------------------------------------------------------===//
// Type helpers for the ODS constraints of tile.load / tile.store
//===----------------------------------------------------------------------===//

namespace tilec::tile {

static PointerType getPointerElement(Type ptrTensor) {
  auto tensor = dyn_cast<RankedTensorType>(ptrTensor);
  return tensor ? dyn_cast<PointerType>(tensor.getElementType()) : PointerType();
}

Type getPointeeTensorType(Type ptrTensor) {
  PointerType ptr = getPointerElement(ptrTensor);
  if (!ptr)
    return {};
  return cast<RankedTensorType>(ptrTensor).clone(ptr.getPointeeType());
}

Type getMaskType(Type ptrTensor) {
  auto tensor = dyn_cast<RankedTensorType>(ptrTensor);
  if (!tensor)
    return {};
  return tensor.clone(IntegerType::get(ptrTensor.getContext(), 1));
}

Type getPointeeScalarType(Type ptrTensor) {
  PointerType ptr = dyn_cast<PointerType>(ptrTensor);
  if (!ptr)
    ptr = getPointerElement(ptrTensor);
  return ptr ? ptr.getPointeeType() : Type();
}

} // namespace tilec::tile
