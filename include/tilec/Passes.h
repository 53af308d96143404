//===- Passes.h - tilec's passes ----------------------------------*- C++ -*-===//

#ifndef TILEC_PASSES_H
#define TILEC_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace tilec {

/// Set by tile-persistent-grid on a kernel it made persistent (its last
/// three i32 arguments are the logical grid).
inline constexpr llvm::StringLiteral kPersistentAttrName = "tilec.persistent";
/// Set by tile-persistent-grid's tile-counter on a persistent kernel whose
/// programs are to claim their tiles from a counter (tilegpu-claim-tiles).
inline constexpr llvm::StringLiteral kTileCounterAttrName = "tilec.tile_counter";
/// The global i32 a kernel's tiles are claimed on is the kernel's name with
/// this suffix (convert-tilegpu-to-nvvm declares it).
inline constexpr llvm::StringLiteral kTileCounterSuffix = "_tiles";
/// On a kernel whose programs along this grid axis (an i32) come longest
/// first (dsl::KernelBuilder::longestFirst): tile-persistent-grid runs that
/// axis slowest, in rounds of alternating direction.
inline constexpr llvm::StringLiteral kLongestFirstAxisAttrName = "tilec.longest_first_axis";
/// On a kernel whose wgmma B operands may have rows of 32 or 64 bytes, in
/// buffers of that swizzle (dsl::KernelBuilder::narrowWgmmaOperands):
/// tilegpu-lower-dots keeps such dots on mma.sync elsewhere.
inline constexpr llvm::StringLiteral kNarrowWgmmaAttrName = "tilec.narrow_wgmma";
/// On a kernel whose warpgroups should meet once a loop step where they met
/// twice (dsl::KernelBuilder::splitStagingBarriers, FlashAttention-3's
/// backward): tilegpu-lower-dots stages a transposed A operand computed every
/// step of a loop in two slots, by the step's parity, and
/// tilegpu-insert-barriers publishes a buffer that only the first warp's TMA
/// stores read to that warp alone (the others arrive, it waits).
inline constexpr llvm::StringLiteral kSplitStagingAttrName = "tilec.split_staging";
/// On the math.exp2 of the online softmax's p = exp2(s·t - m)
/// (tile-decompose-online-softmax): its argument is at most a rounding error
/// above 0, or -inf (a masked score), so convert-tilegpu-to-nvvm may compute
/// it by a polynomial (GpuTarget::exp2OnFma) valid on [-inf, 127].
inline constexpr llvm::StringLiteral kSoftmaxExp2AttrName = "tilec.softmax_exp2";

#define GEN_PASS_DECL
#include "tilec/Dialect/Tile/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/Tile/Passes.h.inc"

} // namespace tilec

#endif // TILEC_PASSES_H
