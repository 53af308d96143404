//===- TileGPUToNVVM.h - tilegpu to NVVM + LLVM conversion patterns -*- C++ -*-===//
//
// The conversion is split by op family, one file each under
// lib/Conversion/TileGPUToNVVM/; `convert-tilegpu-to-nvvm` applies them all.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_TILEGPUTONVVM_H
#define TILEC_CONVERSION_TILEGPUTONVVM_H

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Transforms/DialectConversion.h"

namespace tilec::tilegpu {

/// LLVM types of tilegpu values: shared buffers and mbarriers are
/// `!llvm.ptr<3>`, tensor maps `!llvm.ptr`, cp.async tokens `i32`,
/// distributed tiles (and the dot tokens that stand for them) an LLVM struct
/// of one thread's registers of the layout.
class TileGPUTypeConverter : public mlir::LLVMTypeConverter {
public:
  explicit TileGPUTypeConverter(mlir::MLIRContext *context);
};

/// Block and named barriers, fences, mbarriers, warp roles.
void populateTileGPUSyncToNVVMPatterns(const TileGPUTypeConverter &converter,
                                       mlir::RewritePatternSet &patterns);
/// Shared buffers and slots, cp.async groups, TMA copies.
void populateTileGPUMemoryToNVVMPatterns(const TileGPUTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
/// Matrix multiplies and their waits.
void populateTileGPUMmaToNVVMPatterns(const TileGPUTypeConverter &converter,
                                      mlir::RewritePatternSet &patterns);
/// Reductions of distributed tiles (tile.reduce) within warps, and the
/// expand_dims / broadcast that bring a result back onto a tile.
void populateTileGPUReduceToNVVMPatterns(const TileGPUTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
/// Grid queries, and block loads and stores between global memory and
/// registers (each thread its own elements, bounds-checked).
void populateTileGPUGlobalToNVVMPatterns(const TileGPUTypeConverter &converter,
                                         mlir::RewritePatternSet &patterns);
/// Set on a tile.load (a gather) whose memory the kernel never writes: the
/// address traces back to a kernel argument no store, TMA store or other
/// write reaches (arguments are taken not to alias, as every launch of the
/// attention kernels passes distinct tensors). It is read with predicated
/// `ld.global.nc` and no side effect.
inline constexpr llvm::StringLiteral kReadOnlyGather = "tilegpu.read_only";
/// Marks the module's read-only gathers (before the conversion).
void markReadOnlyGathers(mlir::ModuleOp module);
/// Set on a block load or store whose registers hold runs of consecutive
/// elements along the last dimension: how many move as one predicated
/// ld/st.global (4 to 16 bytes). Without kAlignedAccess the kernel checks
/// at run time that the tensor allows it (contiguous, aligned) and falls
/// back to one element at a time.
inline constexpr llvm::StringLiteral kVectorWidth = "tilegpu.vector_width";
/// Set beside kVectorWidth when the module assumes aligned tensors and the
/// descriptor's base is a kernel argument: that argument goes into the
/// kernel's `tilec.aligned_args` (checked at launch) and the access only
/// traps on an offset along the last dimension that is not a multiple of
/// the width.
inline constexpr llvm::StringLiteral kAlignedAccess = "tilegpu.aligned";
/// Marks the module's block accesses that move vectors (before the
/// conversion); `assumeAligned`: the module's `tilec.target` says so.
void planVectorBlockAccesses(mlir::ModuleOp module, bool assumeAligned);

/// Splat, iota, cast, and reshape / transpose within threads.
void populateTileGPUShapeToNVVMPatterns(const TileGPUTypeConverter &converter,
                                        mlir::RewritePatternSet &patterns);
/// All of the above.
void populateTileGPUToNVVMPatterns(const TileGPUTypeConverter &converter,
                                   mlir::RewritePatternSet &patterns);

} // namespace tilec::tilegpu

#endif // TILEC_CONVERSION_TILEGPUTONVVM_H
