//===- Pipeline.cpp - tilec's registered GPU pass pipelines ---------------===//
//
// The pass lists of `--emit=gpu` and `--emit=llvm`, defined once: the driver
// builds them from its resolved target, tilec-opt by name from an option
// string.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/raw_ostream.h"

#include <type_traits>

using namespace mlir;

namespace tilec {

/// Calls `visit(name, field)` for each field of `target` (a GpuTarget, const
/// or not) that tilec.target records, under its entry name.
template <typename Target, typename Visit>
static void forEachTargetField(Target &target, Visit &&visit) {
  visit("arch", target.arch);
  visit("num_warps", target.numWarps);
  visit("assume_aligned", target.assumeAligned);
  visit("pipeline_stages", target.pipelineStages);
  visit("a_in_shared", target.aInShared);
  visit("min_blocks_per_sm", target.minBlocksPerSM);
  visit("wgmma", target.wgmma);
  visit("tma", target.tma);
  visit("warp_specialize", target.warpSpecialize);
  visit("ping_pong", target.pingPong);
  visit("persistent", target.persistent);
  visit("tile_counter", target.tileCounter);
  visit("tile_slots", target.tileSlots);
  visit("exp2_on_fma", target.exp2OnFma);
  visit("wait_before_next_dot", target.waitBeforeNextDot);
  visit("keep_work_above_waits", target.keepWorkAboveWaits);
  visit("f32_staging_bytes", target.f32StagingBytes);
  visit("prefetch_loads", target.prefetchLoads);
  visit("lowering", target.lowering);
}

DictionaryAttr getTargetAttr(MLIRContext *context, const GpuTarget &target) {
  Builder b(context);
  SmallVector<NamedAttribute> entries;
  forEachTargetField(target, [&](StringRef name, const auto &field) {
    using Field = std::decay_t<decltype(field)>;
    if constexpr (std::is_same_v<Field, bool>)
      entries.push_back(b.getNamedAttr(name, b.getBoolAttr(field)));
    else if constexpr (std::is_same_v<Field, std::string>)
      entries.push_back(b.getNamedAttr(name, b.getStringAttr(field)));
    else
      entries.push_back(b.getNamedAttr(name, b.getI64IntegerAttr(field)));
  });
  return b.getDictionaryAttr(entries);
}

/// Reads `value` into `field` (a bool, a string or an int64_t); false when
/// it has another type.
template <typename Field> static bool readEntry(Attribute value, Field &field) {
  if constexpr (std::is_same_v<Field, bool>) {
    auto flag = dyn_cast<BoolAttr>(value);
    if (flag)
      field = flag.getValue();
    return bool(flag);
  } else if constexpr (std::is_same_v<Field, std::string>) {
    auto text = dyn_cast<StringAttr>(value);
    if (text)
      field = text.str();
    return bool(text);
  } else {
    auto number = dyn_cast<IntegerAttr>(value);
    if (!number || !number.getType().isSignlessInteger(64))
      return false;
    field = number.getInt();
    return true;
  }
}

static const char *typeName(const bool &) { return "a bool"; }
static const char *typeName(const std::string &) { return "a string"; }
static const char *typeName(const int64_t &) { return "an i64 integer"; }

FailureOr<GpuTarget> readTargetAttr(Operation *module, GpuTarget base) {
  Attribute attr = module->getAttr(kTargetAttrName);
  if (!attr)
    return base;
  auto dict = dyn_cast<DictionaryAttr>(attr);
  if (!dict)
    return module->emitError() << "'" << kTargetAttrName << "' must be a dictionary, got "
                               << attr;
  std::string known;
  forEachTargetField(base, [&](StringRef name, auto &) {
    known += (known.empty() ? "" : ", ") + name.str();
  });
  for (NamedAttribute entry : dict) {
    bool found = false, typed = false;
    const char *expected = "";
    forEachTargetField(base, [&](StringRef name, auto &field) {
      if (name != entry.getName().getValue())
        return;
      found = true;
      typed = readEntry(entry.getValue(), field);
      expected = typeName(field);
    });
    if (!found)
      return module->emitError() << "'" << kTargetAttrName << "' has an unknown entry '"
                                 << entry.getName().getValue() << "'; known: " << known;
    if (!typed)
      return module->emitError() << "'" << kTargetAttrName << "' entry '"
                                 << entry.getName().getValue() << "' must be " << expected
                                 << ", got " << entry.getValue();
  }
  return base;
}

void setPipelineOptions(const GpuTarget &target, GpuPipelineOptions &options) {
  options.arch = target.arch;
  options.numWarps = target.numWarps;
  options.assumeAligned = target.assumeAligned;
  options.pipelineStages = target.pipelineStages;
  options.aInShared = target.aInShared;
  options.minBlocksPerSM = target.minBlocksPerSM;
  options.wgmma = target.wgmma;
  options.tma = target.tma;
  options.warpSpecialize = target.warpSpecialize;
  options.pingPong = target.pingPong;
  options.persistent = target.persistent;
  options.tileCounter = target.tileCounter;
  options.tileSlots = target.tileSlots;
  options.exp2OnFma = target.exp2OnFma;
  options.waitBeforeNextDot = target.waitBeforeNextDot;
  options.keepWorkAboveWaits = target.keepWorkAboveWaits;
  options.f32StagingBytes = target.f32StagingBytes;
  options.prefetchLoads = target.prefetchLoads;
  options.lowering = target.lowering;
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
  target.tma = options.tma;
  target.warpSpecialize = options.warpSpecialize;
  target.pingPong = options.pingPong;
  target.persistent = options.persistent;
  target.tileCounter = options.tileCounter;
  target.tileSlots = options.tileSlots;
  target.exp2OnFma = options.exp2OnFma;
  target.waitBeforeNextDot = options.waitBeforeNextDot;
  target.keepWorkAboveWaits = options.keepWorkAboveWaits;
  target.f32StagingBytes = options.f32StagingBytes;
  target.prefetchLoads = options.prefetchLoads;
  target.lowering = options.lowering;
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
  else if (target.lowering != "tile-to-llvm" && target.lowering != "tilegpu")
    os << "unsupported " << optionPrefix << "lowering '" << target.lowering
       << "'; accepted: tile-to-llvm, tilegpu";
  else if (target.tma && (target.arch != "sm_90a" || target.lowering != "tilegpu"))
    os << optionPrefix << "tma needs " << optionPrefix << "arch=sm_90a and " << optionPrefix
       << "lowering=tilegpu";
  else if (target.tma && (!target.wgmma || !target.assumeAligned || target.pipelineStages < 2))
    os << optionPrefix << "tma fills the shared-memory rings of wgmma operands: it needs "
       << optionPrefix << "wgmma, " << optionPrefix << "assume-aligned and "
       << optionPrefix << "pipeline-stages of at least 2 (got wgmma="
       << (target.wgmma ? "true" : "false")
       << " assume-aligned=" << (target.assumeAligned ? "true" : "false")
       << " pipeline-stages=" << target.pipelineStages << ")";
  else if (target.warpSpecialize && !target.tma)
    os << optionPrefix << "warp-specialize needs " << optionPrefix << "tma";
  else if (target.pingPong && !target.warpSpecialize)
    os << optionPrefix << "ping-pong needs " << optionPrefix << "warp-specialize";
  else if (target.exp2OnFma < 0 || target.exp2OnFma > 64)
    os << optionPrefix << "exp2-on-fma must be in [0, 64], got " << target.exp2OnFma;
  else if (target.exp2OnFma && target.lowering != "tilegpu")
    os << optionPrefix << "exp2-on-fma needs " << optionPrefix << "lowering=tilegpu";
  else if (target.tileCounter && !(target.persistent && target.warpSpecialize))
    os << optionPrefix << "tile-counter needs " << optionPrefix << "persistent and " << optionPrefix
       << "warp-specialize";
  else if (target.tileSlots < 1 || target.tileSlots > 2)
    os << optionPrefix << "tile-slots must be 1 or 2, got " << target.tileSlots;
  else if (target.tileSlots > 1 && !(target.persistent && target.warpSpecialize))
    os << optionPrefix << "tile-slots=" << target.tileSlots << " needs " << optionPrefix
       << "persistent and " << optionPrefix << "warp-specialize";
  else if (target.waitBeforeNextDot && target.lowering != "tilegpu")
    os << optionPrefix << "wait-before-next-dot needs " << optionPrefix << "lowering=tilegpu";
  else if (target.keepWorkAboveWaits && target.lowering != "tilegpu")
    os << optionPrefix << "keep-work-above-waits needs " << optionPrefix << "lowering=tilegpu";
  else if (target.f32StagingBytes != 128 && target.f32StagingBytes != 32)
    os << optionPrefix << "f32-staging-bytes must be 128 or 32, got " << target.f32StagingBytes;
  else if (target.lowering == "tilegpu" && target.minBlocksPerSM)
    os << optionPrefix << "lowering=tilegpu does not take " << optionPrefix
       << "min-blocks-per-sm yet";
  return message;
}

/// What both pipelines start with: row terms out of the softmax, online
/// softmax decomposed, the IR simplified, two upper bounds on one index merged, loop loads
/// prefetched where asked.
static void buildTilePreparePipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  pm.addPass(createTileHoistRowTerms());
  pm.addPass(createTileDecomposeOnlineSoftmax());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createTileMergeUpperBounds());
  pm.addPass(createCanonicalizerPass());
  if (options.prefetchLoads)
    pm.addPass(createTilePrefetchLoads());
  if (options.persistent)
    pm.addPass(createTilePersistentGrid(TilePersistentGridOptions{
        /*roundsPerSection=*/TilePersistentGridOptions().roundsPerSection, options.tileCounter}));
}

/// Layouts as the GPU pipeline assigns them: wgmma on column blocks only
/// where tilegpu-lower-dots runs the dots.
static void addLayoutAssignment(OpPassManager &pm, const GpuPipelineOptions &options) {
  const bool warpgroupColumns = options.lowering == "tilegpu" && options.wgmma;
  pm.addPass(tilegpu::createConvertTileToTileGPU(
      tilegpu::ConvertTileToTileGPUOptions{options.numWarps, warpgroupColumns}));
}

void buildTilecAnnotatePipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  buildTilePreparePipeline(pm, options);
  addLayoutAssignment(pm, options);
}

/// tilegpu IR to NVVM by its passes and patterns: dots lowered, loop
/// loads streamed (aligned kernels), the IR cleaned, barriers placed,
/// shared memory allocated, then op by op.
static void buildTileGPUOpByOpPipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  pm.addPass(createCanonicalizerPass());
  pm.addPass(tilegpu::createTileGPULowerDots(
      tilegpu::TileGPULowerDotsOptions{options.arch, options.wgmma, options.aInShared}));
  if (options.assumeAligned)
    pm.addPass(tilegpu::createTileGPUPipelineStreams(tilegpu::TileGPUPipelineStreamsOptions{
        options.pipelineStages, options.tma, options.warpSpecialize, options.tileSlots}));
  if (options.tma)
    pm.addPass(tilegpu::createTileGPUTMAStores(
        tilegpu::TileGPUTMAStoresOptions{static_cast<unsigned>(options.f32StagingBytes)}));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPULowerConversions());
  pm.addPass(createCSEPass());
  pm.addPass(tilegpu::createTileGPUSinkDotWaits(
      tilegpu::TileGPUSinkDotWaitsOptions{options.waitBeforeNextDot,
                                          options.keepWorkAboveWaits}));
  pm.addPass(tilegpu::createTileGPUInsertBarriers());
  if (options.pingPong)
    pm.addPass(tilegpu::createTileGPUPingPong());
  if (options.tileCounter)
    pm.addPass(tilegpu::createTileGPUClaimTiles());
  pm.addPass(tilegpu::createTileGPUAllocateSharedMemory());
  pm.addPass(tilegpu::createConvertTileGPUToNVVM());
}

void buildTilecGpuPipeline(OpPassManager &pm, const GpuPipelineOptions &options) {
  buildTilePreparePipeline(pm, options);
  addLayoutAssignment(pm, options);
  if (options.lowering == "tilegpu")
    buildTileGPUOpByOpPipeline(pm, options);
  else
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

/// `target` with the options that `given` sets explicitly.
static void overrideWithGiven(const GpuPipelineOptions &given, GpuTarget &target) {
  GpuTarget explicitTarget = getGpuTarget(given);
  if (given.arch.hasValue())
    target.arch = explicitTarget.arch;
  if (given.numWarps.hasValue())
    target.numWarps = explicitTarget.numWarps;
  if (given.assumeAligned.hasValue())
    target.assumeAligned = explicitTarget.assumeAligned;
  if (given.pipelineStages.hasValue())
    target.pipelineStages = explicitTarget.pipelineStages;
  if (given.aInShared.hasValue())
    target.aInShared = explicitTarget.aInShared;
  if (given.minBlocksPerSM.hasValue())
    target.minBlocksPerSM = explicitTarget.minBlocksPerSM;
  if (given.wgmma.hasValue())
    target.wgmma = explicitTarget.wgmma;
  if (given.tma.hasValue())
    target.tma = explicitTarget.tma;
  if (given.warpSpecialize.hasValue())
    target.warpSpecialize = explicitTarget.warpSpecialize;
  if (given.pingPong.hasValue())
    target.pingPong = explicitTarget.pingPong;
  if (given.prefetchLoads.hasValue())
    target.prefetchLoads = explicitTarget.prefetchLoads;
  if (given.persistent.hasValue())
    target.persistent = explicitTarget.persistent;
  if (given.tileCounter.hasValue())
    target.tileCounter = explicitTarget.tileCounter;
  if (given.tileSlots.hasValue())
    target.tileSlots = explicitTarget.tileSlots;
  if (given.exp2OnFma.hasValue())
    target.exp2OnFma = explicitTarget.exp2OnFma;
  if (given.waitBeforeNextDot.hasValue())
    target.waitBeforeNextDot = explicitTarget.waitBeforeNextDot;
  if (given.keepWorkAboveWaits.hasValue())
    target.keepWorkAboveWaits = explicitTarget.keepWorkAboveWaits;
  if (given.f32StagingBytes.hasValue())
    target.f32StagingBytes = explicitTarget.f32StagingBytes;
  if (given.lowering.hasValue())
    target.lowering = explicitTarget.lowering;
}

namespace {

/// A registered pipeline as one pass: it resolves the target when it sees
/// the module (the options given, else the module's tilec.target, else the
/// defaults), records it there and runs the pass list for it.
class TargetPipelinePass
    : public PassWrapper<TargetPipelinePass, OperationPass<ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TargetPipelinePass)

  TargetPipelinePass(llvm::StringRef name, PipelineBuilder build, llvm::StringRef options)
      : name(name), build(build), options(options.str()) {}

  llvm::StringRef getArgument() const override { return name; }
  llvm::StringRef getName() const override { return "TilecTargetPipeline"; }
  llvm::StringRef getDescription() const override {
    return "resolve the target (options, else tilec.target), record it, run the pass list";
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    for (const char *lowering : {"tile-to-llvm", "tilegpu"}) {
      GpuPipelineOptions everyPass;
      everyPass.prefetchLoads = true;
      everyPass.persistent = true;
      everyPass.assumeAligned = true;
      everyPass.lowering = lowering;
      OpPassManager pm(ModuleOp::getOperationName());
      build(pm, everyPass);
      pm.getDependentDialects(registry);
    }
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<GpuTarget> target = readTargetAttr(module);
    if (failed(target))
      return signalPassFailure();
    GpuPipelineOptions given;
    if (failed(given.parseFromString(options))) // checked when registered
      return signalPassFailure();
    overrideWithGiven(given, *target);
    if (std::string error = verifyGpuTarget(*target, ""); !error.empty()) {
      module.emitError() << name << ": " << error;
      return signalPassFailure();
    }
    module->setAttr(kTargetAttrName, getTargetAttr(&getContext(), *target));
    GpuPipelineOptions resolved;
    setPipelineOptions(*target, resolved);
    OpPassManager pm(ModuleOp::getOperationName());
    build(pm, resolved);
    if (failed(runPipeline(pm, module)))
      signalPassFailure();
  }

private:
  llvm::StringRef name;
  PipelineBuilder build;
  std::string options; ///< as given: the ones that override tilec.target
};

} // namespace

/// Registers `name` like mlir::PassPipelineRegistration<GpuPipelineOptions>
/// does, but as a TargetPipelinePass, so that options not given fall back
/// to the module's tilec.target and bad values are one error line naming the
/// option.
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
    pm.addPass(std::make_unique<TargetPipelinePass>(name, build, text));
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
