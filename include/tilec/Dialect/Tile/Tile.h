//===- Tile.h - the tile dialect: types, enums and ops ----------*- C++ -*-===//
//
// Include this one header to use the tile dialect from C++. The generated
// declarations come from the ODS files in dialects/Tile/.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILE_TILE_H
#define TILEC_DIALECT_TILE_TILE_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tilec/Dialect/Tile/TileDialect.h.inc"
#include "tilec/Dialect/Tile/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/Tile/TileTypes.h.inc"

namespace tilec::tile {

/// Type transformations used by the ODS type constraints of tile.load and
/// tile.store: from `tensor<SHAPE x !tile.ptr<T>>` to `tensor<SHAPE x T>`,
/// `tensor<SHAPE x i1>` and `T`. A type that is not a tensor of pointers maps
/// to a null type, which never matches, so the verifier reports the mismatch.
mlir::Type getPointeeTensorType(mlir::Type ptrTensor);
mlir::Type getMaskType(mlir::Type ptrTensor);
mlir::Type getPointeeScalarType(mlir::Type ptrTensor);

/// `kind`'s combining function on two scalars (add, maximum, minimum; for
/// floats NaN-propagating), built with arith ops: what every lowering of
/// tile.reduce combines with.
mlir::Value buildCombine(mlir::OpBuilder &builder, mlir::Location loc, ReduceKind kind,
                         mlir::Value a, mlir::Value b);

} // namespace tilec::tile

#define GET_OP_CLASSES
#include "tilec/Dialect/Tile/TileOps.h.inc"

#endif // TILEC_DIALECT_TILE_TILE_H
