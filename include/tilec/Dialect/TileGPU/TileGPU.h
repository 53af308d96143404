//===- TileGPU.h - the tilegpu dialect: attributes, types, ops --*- C++ -*-===//
//
// Include this one header to use the tilegpu dialect from C++. The generated
// declarations come from the ODS files in dialects/TileGPU/.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DIALECT_TILEGPU_TILEGPU_H
#define TILEC_DIALECT_TILEGPU_TILEGPU_H

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Layout/LinearLayout.h"

#include "mlir/IR/TensorEncoding.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <optional>
#include <string>

#include "tilec/Dialect/TileGPU/TileGPUDialect.h.inc"
#include "tilec/Dialect/TileGPU/TileGPUEnums.h.inc"
#include "tilec/Dialect/TileGPU/TileGPUAttrInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tilec/Dialect/TileGPU/TileGPUOps.h.inc"

namespace tilec::tilegpu {

/// On a `func.func`: the function is a kernel (convert-tile-to-tilegpu sets
/// it; convert-tilegpu-to-nvvm makes it an `llvm.func` with `nvvm.kernel`).
inline constexpr llvm::StringLiteral kKernelAttrName = "tilegpu.kernel";

/// On a `tilegpu.alloc` (a TMA ring of tilegpu-pipeline-streams): every
/// thread arrives on the slot's "empty" mbarrier after reading a slot and
/// the copy that overwrites it waits there first, so its reads need no
/// barrier before the overwrite (tilegpu-insert-barriers).
inline constexpr llvm::StringLiteral kReleasedByMBarrier = "tilegpu.released_by_mbarrier";
/// On a two-slot `tilegpu.alloc` whose slot alternates with the steps of the
/// loop it is in (tilegpu-lower-dots, kSplitStagingAttrName): a step's reads
/// of its slot meet the write two steps later, not the next step's
/// (tilegpu-insert-barriers).
inline constexpr llvm::StringLiteral kAlternatingSlots = "tilegpu.alternating_slots";

/// `shape` without its size-1 dimensions (how a block of a descriptor, a TMA
/// box and a shared buffer match).
llvm::SmallVector<int64_t> withoutUnitDims(llvm::ArrayRef<int64_t> shape);

/// How many of `map`'s boxes a `tilegpu.tma_load` into `buffer` copies side
/// by side: the buffer's innermost size over the box's when each box is
/// exactly one column block of the swizzled buffer (a 64x128 bf16 tile is
/// two 128-byte-swizzled boxes of 64x64), else 1.
int64_t columnBlockBoxes(TensorMapType map, SharedMemoryType buffer);

/// The buffer a shared-memory value views (through slots, to its alloc).
mlir::Value rootBuffer(mlir::Value buffer);

/// The shared buffers a warpgroup_dot reads (B, and A when it is one), as
/// their root buffers.
llvm::SmallVector<mlir::Value, 2> dotOperandBuffers(WarpgroupDotOp dot);

/// How a wgmma accumulator layout places its warpgroups.
struct WgmmaGrid {
  int64_t warpgroupsM; ///< stacked along M, 64 rows each
  int64_t columns;     ///< column blocks side by side (each warpgroupsM)
};

/// The warpgroups of `layout` when it is the wgmma accumulator of an MxN
/// tile (LinearLayout::wgmmaAccumulator), else nullopt.
std::optional<WgmmaGrid> wgmmaGridOf(const LinearLayout &layout, int64_t m, int64_t n);

/// Whether a tile of `type` can go into `buffer` by stmatrix (local_store
/// `matrix`): 16-bit elements, a 2-D layout of mma C fragments (register 0
/// the next column, lanes 0-1 the column pair, lanes 2-4 the row) whose other
/// register and warp bases move whole 8x8 blocks, at least four blocks per
/// thread, into a swizzled buffer of the same type and shape.
bool fitsStMatrix(mlir::RankedTensorType type, SharedMemoryType buffer);

/// Whether `op` synchronizes every thread of its group: the block barrier,
/// or a named barrier of a constant id over all threads of its warp role
/// (or any named barrier outside roles). A barrier whose id depends on the
/// thread — tilegpu-ping-pong's turns, where one warpgroup waits for
/// another's arrival — only orders some threads after others, as does one in
/// a branch (tilegpu-insert-barriers' wait of the first warp alone).
bool isGroupBarrier(mlir::Operation &op);

/// The warp role (`warp_specialize` region) that runs `op`: its index and
/// threads. None outside roles.
struct WarpRole {
  unsigned index;
  int32_t threads;
};
std::optional<WarpRole> enclosingRole(mlir::Operation &op);

/// The body of `op` if it is a persistent kernel's tile loop (each
/// iteration one tile): an scf.for, or the "after" region of
/// tilegpu-claim-tiles' scf.while, directly in the body of a kernel marked
/// tilec.persistent or of one of its warp roles. Null for any other op.
mlir::Block *tileLoopBody(mlir::Operation &op);

/// A barrier of every thread that runs `at`, made at `b`: the named barrier
/// of its warp role (id = role + 1, the role's threads), or the block's
/// outside roles. isGroupBarrier holds for it.
void createGroupBarrier(mlir::OpBuilder &b, mlir::Location loc, mlir::Operation *at);

/// The distributed layout of a tile type, when its encoding is one.
mlir::FailureOr<LinearLayout> getLinearLayout(mlir::RankedTensorType type);

/// `type` with its encoding replaced by `layout`'s attribute
/// (`#tilegpu.linear`).
mlir::RankedTensorType withLayout(mlir::RankedTensorType type, const LinearLayout &layout);

} // namespace tilec::tilegpu

#endif // TILEC_DIALECT_TILEGPU_TILEGPU_H
