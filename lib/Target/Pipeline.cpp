//===- Pipeline.cpp - tilec's registered GPU pass pipelines ---------------===//
//
// The pass lists of `--emit=gpu` and `--emit=llvm`, defined once: the driver
// builds them from its resolved target, tilec-opt by name from an option
// string.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"

#include "tilec/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace tilec {

void setPipelineOptions(const GpuTarget &target, GpuPipelineOptions &options) {
  options.arch = target.arch;
  options.numWarps = target.numWarps;
  options.assumeAligned = target.assumeAligned;
  options.pipelineStages = target.pipelineStages;
  options.aInShared = target.aInShared;
  options.minBlocksPerSM = target.minBlocksPerSM;
  options.wgmma = target.wgmma;
  options.prefetchLoads = target.prefetchLoads;
}

GpuTarget getGpuTarget(const GpuPipelineOptions &options) {
  GpuTarget target;
  target.arch = options.arch;
  target.numWarps = options.numWarps;
  target.assumeAligned = options.assumeAligned;
  target.pipelineStages = options.pipelineStages;
  target.aInShared = options.aInShared;
  target.minBlocksPerSM = options.minBlocksPerSM;
  target.wgmma = options.wgmma;
  target.prefetchLoads = options.prefetchLoads;
  return target;
}

std::string verifyGpuTarget(const GpuTarget &target, llvm::StringRef optionPrefix) {
  std::string message;
  llvm::raw_string_ostream os(message);
  int64_t warps = target.numWarps;
  if (target.arch != "sm_80" && target.arch != "sm_90a")
    os << "unsupported " << optionPrefix << "arch '" << target.arch
       << "'; accepted: sm_80, sm_90a";
  else if (warps < 1 || warps > 32 || !llvm::has_single_bit(static_cast<uint64_t>(warps)))
    os << optionPrefix << "num-warps must be a power of two in [1, 32], got " << warps;
  else if (target.minBlocksPerSM < 0 || target.minBlocksPerSM > 32)
    os << optionPrefix << "min-blocks-per-sm must be in [0, 32], got " << target.minBlocksPerSM;
  else if (target.pipelineStages < 0 || target.pipelineStages > 8)
    os << optionPrefix << "pipeline-stages must be in [0, 8], got " << target.pipelineStages;
  else if (target.wgmma && target.arch != "sm_90a")
    os << optionPrefix << "wgmma needs " << optionPrefix << "arch=sm_90a (got " << target.arch
       << ")";
  return message;
}

/// What both pipelines start with: online softmax decomposed, the IR
/// simplified, loop loads prefetched where asked.
static void buildTilePreparePipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  pm.addPass(createTileDecomposeOnlineSoftmax());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.prefetchLoads)
    pm.addPass(createTilePrefetchLoads());
}

void buildTilecAnnotatePipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  buildTilePreparePipeline(pm, options);
  pm.addPass(createTileAnnotateLayouts(TileAnnotateLayoutsOptions{options.numWarps}));
}

void buildTilecGpuPipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  buildTilePreparePipeline(pm, options);
  pm.addPass(createTileToLLVM(TileToLLVMOptions{options.numWarps, options.assumeAligned,
                                                options.pipelineStages, options.aInShared,
                                                options.minBlocksPerSM, options.wgmma}));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertNVVMToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

std::string pipelineFlag(llvm::StringRef name, const GpuTarget &target) {
  GpuPipelineOptions options;
  setPipelineOptions(target, options);
  std::string braced;
  llvm::raw_string_ostream os(braced);
  options.print(os); // "{k=v k=v ...}", every option, sorted by name
  llvm::StringRef values = llvm::StringRef(braced).drop_front().drop_back();
  return ("--" + name + "=\"" + values + "\"").str();
}

using PipelineBuilder = void (*)(OpPassManager &, const GpuPipelineOptions &);

/// Registers `name` like mlir::PassPipelineRegistration<GpuPipelineOptions>
/// does, and also checks the values (verifyGpuTarget), so that a bad option
/// is one error line instead of a pipeline that fails later or silently.
static void registerGpuPipeline(llvm::StringRef name, llvm::StringRef description,
                                PipelineBuilder build) {
  auto addToPipeline = [name, build](OpPassManager &pm, llvm::StringRef text,
                                     function_ref<LogicalResult(const Twine &)> errorHandler) {
    GpuPipelineOptions options;
    std::string parseError;
    llvm::raw_string_ostream errors(parseError);
    if (failed(options.parseFromString(text, errors))) {
      // llvm::cl reports bad values itself (on stderr), unknown names here.
      llvm::StringRef why = llvm::StringRef(parseError).trim();
      return errorHandler(name + ": invalid options '" + text + "'" +
                          (why.empty() ? "" : ": ") + why);
    }
    if (std::string error = verifyGpuTarget(getGpuTarget(options), ""); !error.empty())
      return errorHandler(name + ": " + error);
    build(pm, options);
    return success();
  };
  registerPassPipeline(name, description, addToPipeline,
                       [](function_ref<void(const detail::PassOptions &)> printOptions) {
                         printOptions(GpuPipelineOptions());
                       });
}

void registerTilecPipelines() {
  registerGpuPipeline(kGpuPipelineName,
                      "tile IR to the LLVM + NVVM dialects (what tilec --emit=llvm prints)",
                      buildTilecGpuPipeline);
  registerGpuPipeline(kAnnotatePipelineName,
                      "tile IR with the distributed layout of every tile (tilec --emit=gpu)",
                      buildTilecAnnotatePipeline);
}

} // namespace tilec
