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
class DictionaryAttr;
class MLIRContext;
class OpPassManager;
class Operation;
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
  Option<bool> tma{*this, "tma",
                   llvm::cl::desc("sm_90a, lowering=tilegpu: rings that feed wgmma are filled by "
                                  "TMA onto mbarriers (tensor-map kernel parameters)"),
                   llvm::cl::init(GpuTarget().tma)};
  Option<bool> warpSpecialize{
      *this, "warp-specialize",
      llvm::cl::desc("With tma: a producer warpgroup fills the rings, the kernel's warps compute"),
      llvm::cl::init(GpuTarget().warpSpecialize)};
  Option<bool> pingPong{
      *this, "ping-pong",
      llvm::cl::desc("With warp-specialize: the consumer warpgroups take turns issuing each "
                     "iteration's first dots (tilegpu-ping-pong)"),
      llvm::cl::init(GpuTarget().pingPong)};
  Option<bool> persistent{
      *this, "persistent",
      llvm::cl::desc("Programs loop over the logical grid (tile-persistent-grid); the runtime "
                     "launches as many as fit on the GPU"),
      llvm::cl::init(GpuTarget().persistent)};
  Option<bool> tileCounter{
      *this, "tile-counter",
      llvm::cl::desc("With persistent and warp-specialize: programs claim their tiles from a "
                     "counter (tilegpu-claim-tiles) instead of a static order"),
      llvm::cl::init(GpuTarget().tileCounter)};
  Option<int64_t> tileSlots{
      *this, "tile-slots",
      llvm::cl::desc("With persistent and warp-specialize: slots (1 or 2) of the rings of the "
                     "blocks a tile reads from its start (Q); 2 loads the next tile's during "
                     "this one"),
      llvm::cl::init(GpuTarget().tileSlots)};
  Option<int64_t> exp2OnFma{
      *this, "exp2-on-fma",
      llvm::cl::desc("lowering=tilegpu: one in N of the online softmax's exp2 per thread by a "
                     "polynomial on the FMA pipes instead of MUFU.EX2, N in [0, 64]; 0: none"),
      llvm::cl::init(GpuTarget().exp2OnFma)};
  Option<bool> waitBeforeNextDot{
      *this, "wait-before-next-dot",
      llvm::cl::desc("lowering=tilegpu: each wgmma wait stays before the next wgmma's issue "
                     "(tilegpu-sink-dot-waits)"),
      llvm::cl::init(GpuTarget().waitBeforeNextDot)};
  Option<bool> keepWorkAboveWaits{
      *this, "keep-work-above-waits",
      llvm::cl::desc("lowering=tilegpu: each wgmma wait keeps the loop's row sums computed "
                     "before it in ptxas's schedule too (tilegpu-sink-dot-waits)"),
      llvm::cl::init(GpuTarget().keepWorkAboveWaits)};
  Option<int64_t> f32StagingBytes{
      *this, "f32-staging-bytes",
      llvm::cl::desc("lowering=tilegpu, tma: column-block bytes (swizzle) of the buffer that "
                     "stages an f32 tile for a TMA store or reduction: 128 or 32 "
                     "(tilegpu-tma-stores)"),
      llvm::cl::init(GpuTarget().f32StagingBytes)};
  Option<bool> prefetchLoads{
      *this, "prefetch-loads",
      llvm::cl::desc("Issue loop block loads one iteration ahead (tile-prefetch-loads)"),
      llvm::cl::init(GpuTarget().prefetchLoads)};
  Option<std::string> lowering{
      *this, "lowering",
      llvm::cl::desc("tile-to-llvm (every kernel) or tilegpu (passes on tilegpu IR, then "
                     "convert-tilegpu-to-nvvm; the ops it covers so far)"),
      llvm::cl::init(GpuTarget().lowering)};
};

/// The module attribute that records the target and schedule a module is
/// compiled for: a dictionary of GpuTarget's fields in snake_case,
/// `{a_in_shared = false, arch = "sm_90a", assume_aligned = true,
/// min_blocks_per_sm = 0 : i64, num_warps = 4 : i64, pipeline_stages = 2 : i64,
/// prefetch_loads = false, wgmma = true}`. The driver writes it (on a kernel's
/// tile IR and before the GPU pipelines); the pipelines run by name read it
/// for every option not given and record what they ran for; the launch
/// metadata is written from it.
inline constexpr const char *kTargetAttrName = "tilec.target";

/// `target` as a tilec.target dictionary (every field).
mlir::DictionaryAttr getTargetAttr(mlir::MLIRContext *context, const GpuTarget &target);

/// `base` with the entries of `module`'s tilec.target where it has one;
/// failure, after an error on `module` naming the entry, when an entry is
/// unknown or of the wrong type. Values are not range-checked here
/// (verifyGpuTarget does that).
mlir::FailureOr<GpuTarget> readTargetAttr(mlir::Operation *module, GpuTarget base = {});

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
/// pass registry. Options not given come from the module's tilec.target,
/// else GpuTarget's defaults; the result is recorded on the module and
/// checked (verifyGpuTarget), bad values reported naming the option.
void registerTilecPipelines();

} // namespace tilec

#endif // TILEC_TARGET_PIPELINE_H
