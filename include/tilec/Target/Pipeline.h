//===- Pipeline.h - tilec's registered GPU pass pipelines --------*- C++ -*-===//
//
// The one definition of the pass lists that take tile IR to the
// layout-annotated view (`--emit=gpu`) and to the LLVM + NVVM dialects
// (`--emit=llvm`). `tilec` builds them from a resolved GpuTarget; `tilec-opt`
// runs the same lists by name:
//
//   tilec-opt --tilec-gpu-pipeline="arch=sm_90a num-warps=4 wgmma=true" k.mlir
//   tilec-opt --pass-pipeline="builtin.module(tilec-annotate-pipeline{num-warps=8})"
//
// `tilec --print-pipeline` prints the exact command for a stage.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_TARGET_PIPELINE_H
#define TILEC_TARGET_PIPELINE_H

#include "tilec/Target/PTX.h"

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace tilec {

/// The pipeline names `tilec-opt` knows them by.
inline constexpr const char *kGpuPipelineName = "tilec-gpu-pipeline";
inline constexpr const char *kAnnotatePipelineName = "tilec-annotate-pipeline";

/// The textual options of both pipelines: GpuTarget's fields, with its
/// defaults. The annotate pipeline reads num-warps and prefetch-loads; the
/// others are accepted so that one option string describes a compilation.
struct GpuPipelineOptions : public mlir::PassPipelineOptions<GpuPipelineOptions> {
  Option<std::string> arch{*this, "arch", llvm::cl::desc("GPU architecture: sm_80 or sm_90a"),
                           llvm::cl::init(GpuTarget().arch)};
  Option<int64_t> numWarps{*this, "num-warps",
                           llvm::cl::desc("Warps per program (a power of two in [1, 32])"),
                           llvm::cl::init(GpuTarget().numWarps)};
  Option<bool> assumeAligned{
      *this, "assume-aligned",
      llvm::cl::desc("Tensor arguments are contiguous and 16-byte aligned along their last "
                     "dimension: block accesses use 16-byte vectors, no scalar fallback"),
      llvm::cl::init(GpuTarget().assumeAligned)};
  Option<int64_t> pipelineStages{
      *this, "pipeline-stages",
      llvm::cl::desc("Shared-memory slots per streamed block load (cp.async), in [0, 8]; "
                     "below 2: off"),
      llvm::cl::init(GpuTarget().pipelineStages)};
  Option<bool> aInShared{
      *this, "a-in-shared",
      llvm::cl::desc("Loop-invariant dot A operands live in shared memory (ldmatrix)"),
      llvm::cl::init(GpuTarget().aInShared)};
  Option<int64_t> minBlocksPerSM{
      *this, "min-blocks-per-sm",
      llvm::cl::desc("Programs ptxas must fit on one SM, in [0, 32]; 0: no cap"),
      llvm::cl::init(GpuTarget().minBlocksPerSM)};
  Option<bool> wgmma{*this, "wgmma",
                     llvm::cl::desc("Dots run as wgmma.mma_async where they fit (sm_90a)"),
                     llvm::cl::init(GpuTarget().wgmma)};
  Option<bool> prefetchLoads{
      *this, "prefetch-loads",
      llvm::cl::desc("Issue loop block loads one iteration ahead (tile-prefetch-loads)"),
      llvm::cl::init(GpuTarget().prefetchLoads)};
};

/// Copies the fields of `target` into `options`.
void setPipelineOptions(const GpuTarget &target, GpuPipelineOptions &options);

/// The target that `options` describe (features keep GpuTarget's default).
GpuTarget getGpuTarget(const GpuPipelineOptions &options);

/// Empty when `target` is one tilec can compile for, else why not, naming
/// each option as `optionPrefix` + its name ("--" for the driver's flags,
/// "" for pipeline options).
std::string verifyGpuTarget(const GpuTarget &target, llvm::StringRef optionPrefix);

/// Tile IR -> layout-annotated tile IR (what `tilec --emit=gpu` prints).
void buildTilecAnnotatePipeline(mlir::OpPassManager &pm, const GpuPipelineOptions &options);

/// Tile IR -> LLVM + NVVM dialects (what `tilec --emit=llvm` prints, and
/// what translates to LLVM IR and PTX).
void buildTilecGpuPipeline(mlir::OpPassManager &pm, const GpuPipelineOptions &options);

/// `--NAME="k=v ..."`: the tilec-opt flag that runs pipeline `name` for
/// `target`, every option spelled out.
std::string pipelineFlag(llvm::StringRef name, const GpuTarget &target);

/// Registers tilec-gpu-pipeline and tilec-annotate-pipeline with the global
/// pass registry. Bad option values are reported, naming the option.
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_TARGET_PIPELINE_H
