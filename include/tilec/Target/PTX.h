//===- PTX.h - from tile kernels to PTX, in process ---------------*- C++ -*-===//

#ifndef TILEC_TARGET_PTX_H
#define TILEC_TARGET_PTX_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>

namespace tilec {

/// The most dynamic shared memory one block may have on `arch` (the opt-in
/// maximum: 227 KiB on sm_90a, 163 KiB on sm_80).
inline int64_t maxSharedBytesPerBlock(llvm::StringRef arch) {
  return arch == "sm_90a" ? 227 * 1024 : 163 * 1024;
}

struct GpuTarget {
  std::string arch = "sm_80";   ///< sm_80 or sm_90a
  std::string features = "+ptx80";
  int64_t numWarps = 4;
  /// Issue loop block loads one iteration ahead (tile-prefetch-loads). Off by
  /// default: on the H200 it costs more in register spills than it hides in
  /// latency with today's code generation (bench/RESULTS.md).
  bool prefetchLoads = false;
  /// Tensor arguments are contiguous and 16-byte aligned along their last
  /// dimension (recorded in the metadata, checked by the runtime): block
  /// accesses need no scalar fallback.
  bool assumeAligned = false;
  /// Shared-memory slots per block load streamed by cp.async (loads of a loop
  /// that feed only a dot's B operand; needs assumeAligned). Below 2: off.
  int64_t pipelineStages = 2;
  /// Loop-invariant A operands of dots (Q) live in shared memory, not in
  /// registers through the loop.
  bool aInShared = false;
  /// Programs ptxas must fit on one SM (caps registers per thread); 0: none.
  int64_t minBlocksPerSM = 0;
  /// Dots whose operands allow it run as wgmma (sm_90a only).
  bool wgmma = false;
  /// sm_90a, tilegpu lowering: rings that feed wgmma are filled by TMA onto
  /// mbarriers (tensor maps made by the runtime) instead of cp.async.
  bool tma = false;
  /// With tma: a producer warpgroup issues the copies into the rings (on
  /// full/empty mbarriers), the kernel's warps only compute.
  bool warpSpecialize = false;
  /// With warpSpecialize and two or more consumer warpgroups: they take
  /// turns issuing each iteration's first dots (tilegpu-ping-pong).
  bool pingPong = false;
  /// Programs loop over the logical grid (tile-persistent-grid): the runtime
  /// launches as many as fit on the GPU at once and passes the grid.
  bool persistent = false;
  /// With persistent and warpSpecialize: programs claim their tiles from a
  /// global counter as they come free (tilegpu-claim-tiles) instead of a
  /// static order. Launches of one loaded kernel must not overlap.
  bool tileCounter = false;
  /// With persistent and warpSpecialize: slots of the rings of the blocks a
  /// tile reads from its start (the forward's Q), 1 or 2. With 2 the
  /// producer loads the next tile's while the consumers work on this one,
  /// instead of once they are done with it.
  int64_t tileSlots = 1;
  /// Lowering=tilegpu: of the online softmax's exp2 on each thread's scores,
  /// one in N runs as a polynomial on the FMA pipes instead of MUFU.EX2
  /// (whose 16 results a clock per SM match the tensor cores' work at
  /// d = 64); 0: none.
  int64_t exp2OnFma = 0;
  /// Lowering=tilegpu: a wgmma wait stays before the next wgmma's issue
  /// (tilegpu-sink-dot-waits' wait-before-next-dot): with overlap, P·V
  /// issues once Q·Kᵀ is done and ptxas keeps the softmax before P·V's wait
  /// (measured slower: bench/RESULTS.md, session 34).
  bool waitBeforeNextDot = false;
  /// Lowering=tilegpu: each wgmma wait takes the loop-carried row sums and
  /// maxima computed between its dot and it as `after` values
  /// (tilegpu-sink-dot-waits' keep-work-above-waits), so that ptxas runs
  /// the softmax before P·V's wait rather than after it.
  bool keepWorkAboveWaits = false;
  /// Lowering=tilegpu with TMA: the column-block bytes (swizzle, TMA box
  /// row) of a buffer that stages an f32 tile for a TMA store or reduction
  /// (tilegpu-tma-stores' f32-staging-bytes): 128, or 32, where a warp's
  /// 8-byte accumulator stores meet no bank conflict (the fused backward's
  /// dQ; not yet run on the GPU, session 49).
  int64_t f32StagingBytes = 128;
  /// How tilegpu IR becomes per-thread code: "tile-to-llvm" (the kernel
  /// lowering that runs every registered kernel) or "tilegpu" (the passes
  /// on tilegpu IR and its op-by-op conversion to NVVM: dots, block loads
  /// and stores, cp.async streams, elementwise ops and reductions within
  /// warps so far).
  std::string lowering = "tile-to-llvm";
};

/// tile dialect -> per-thread code -> LLVM + NVVM dialects: runs
/// buildTilecGpuPipeline (tilec-gpu-pipeline) for `target`, up to the point
/// where the module translates to LLVM IR. With `dumpDir`, the IR after
/// every pass is written there (one file per pass).
mlir::LogicalResult lowerToLLVMDialect(mlir::ModuleOp module, const GpuTarget &target,
                                       const std::string &dumpDir = "",
                                       bool timing = false);

/// The layout-annotated tile IR (what `--emit=gpu` prints): runs
/// buildTilecAnnotatePipeline (tilec-annotate-pipeline) for `target`.
mlir::LogicalResult annotateLayouts(mlir::ModuleOp module, const GpuTarget &target);

/// LLVM IR text of a module in the LLVM dialect, optimized at O3 for `target`.
mlir::FailureOr<std::string> translateToLLVMIR(mlir::ModuleOp module, const GpuTarget &target);

/// PTX of a module in the LLVM dialect, through LLVM's NVPTX backend.
mlir::FailureOr<std::string> translateToPTX(mlir::ModuleOp module, const GpuTarget &target);

} // namespace tilec

#endif // TILEC_TARGET_PTX_H
