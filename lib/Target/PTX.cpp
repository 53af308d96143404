//===- PTX.cpp - running the GPU pipeline; LLVM's NVPTX backend -----------===//

#include "tilec/Target/PTX.h"

#include "tilec/Target/Pipeline.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace mlir;

namespace tilec {

LogicalResult annotateLayouts(ModuleOp module, const GpuTarget &target) {
  PassManager pm(module.getContext());
  module->setAttr(kTargetAttrName, getTargetAttr(module.getContext(), target));
  GpuPipelineOptions options;
  setPipelineOptions(target, options);
  buildTilecAnnotatePipeline(pm, options);
  return pm.run(module);
}

LogicalResult lowerToLLVMDialect(ModuleOp module, const GpuTarget &target,
                                 const std::string &dumpDir, bool timing) {
  PassManager pm(module.getContext());
  if (!dumpDir.empty()) {
    module.getContext()->disableMultithreading();
    pm.enableIRPrintingToFileTree([](Pass *, Operation *) { return false; },
                                  [](Pass *, Operation *) { return true; },
                                  /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false,
                                  /*printAfterOnlyOnFailure=*/false, dumpDir);
  }
  if (timing)
    pm.enableTiming();
  module->setAttr(kTargetAttrName, getTargetAttr(module.getContext(), target));
  GpuPipelineOptions options;
  setPipelineOptions(target, options);
  buildTilecGpuPipeline(pm, options);
  return pm.run(module);
}

static void initializeNVPTX() {
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // 32-bit shared-memory pointers (they address at most 228 KiB): fewer
    // 64-bit address registers in the loops (the NVPTX backend's
    // -nvptx-short-ptr, read when a target machine is created).
    auto &options = llvm::cl::getRegisteredOptions();
    if (auto *shortPointers = options.lookup("nvptx-short-ptr"))
      static_cast<llvm::cl::opt<bool> *>(shortPointers)->setValue(true);
  });
}

/// NVVM ops of Hopper (sm_90) that MLIR 22 does not mark with their SM
/// version: on an older target the NVPTX backend aborts on them.
static bool needsHopper(Operation *op) {
  StringRef name = op->getName().getStringRef();
  for (StringRef prefix :
       {"nvvm.fence.mbarrier", "nvvm.fence.proxy", "nvvm.mbarrier.try_wait",
        "nvvm.mbarrier.arrive.expect_tx", "nvvm.cp.async.bulk", "nvvm.wgmma", "nvvm.setmaxregister",
        "nvvm.elect", "nvvm.stmatrix", "nvvm.prefetch", "nvvm.cluster", "nvvm.mapa",
        "nvvm.griddepcontrol"})
    if (name.starts_with(prefix))
      return true;
  return false;
}

/// The module in LLVM IR, optimized for `target`, with the target machine
/// that emits it.
static FailureOr<std::pair<std::unique_ptr<llvm::Module>, std::unique_ptr<llvm::TargetMachine>>>
buildLLVMModule(ModuleOp module, const GpuTarget &target, llvm::LLVMContext &llvmContext) {
  initializeNVPTX();
  registerBuiltinDialectTranslation(*module.getContext());
  registerLLVMDialectTranslation(*module.getContext());
  registerNVVMDialectTranslation(*module.getContext());
  // An op the lowering left behind (one no pattern converts, e.g. math.erf)
  // is named at its location, not as a missing translation interface; an
  // NVVM op the target lacks (an mbarrier fence on sm_80) likewise, not as
  // an instruction-selection abort in the NVPTX backend.
  const NVVM::NVVMCheckSMVersion targetSM =
      NVVM::NVVMCheckSMVersion::getTargetSMVersionFromStr(target.arch);
  WalkResult unconverted = module.walk([&](Operation *op) {
    StringRef dialect = op->getDialect() ? op->getDialect()->getNamespace() : "";
    auto needs = dyn_cast<NVVM::RequiresSMInterface>(op);
    if ((needs && !needs.getRequiredMinSMVersion().isCompatibleWith(targetSM)) ||
        (!targetSM.archAccelerated && targetSM.smVersionList[0] < 90 && needsHopper(op))) {
      op->emitError("'") << op->getName() << "' needs a newer GPU than " << target.arch;
      return WalkResult::interrupt();
    }
    if (isa<ModuleOp>(op) || dialect == "llvm" || dialect == "nvvm")
      return WalkResult::advance();
    op->emitError("'") << op->getName()
                       << "' is not supported by the GPU lowering (nothing converts it to "
                          "LLVM or NVVM)";
    return WalkResult::interrupt();
  });
  if (unconverted.wasInterrupted())
    return failure();
  std::unique_ptr<llvm::Module> llvmModule = translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule) {
    module.emitError("translation to LLVM IR failed");
    return failure();
  }
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *llvmTarget = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    module.emitError("no NVPTX target in this LLVM: ") << error;
    return failure();
  }
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.arch, target.features, llvm::TargetOptions(), std::nullopt, std::nullopt,
      llvm::CodeGenOptLevel::Aggressive));
  if (!machine) {
    module.emitError("cannot create an NVPTX target machine for ") << target.arch;
    return failure();
  }
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());

  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder builder(machine.get());
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::ModulePassManager passes =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  passes.run(*llvmModule, mam);
  return std::make_pair(std::move(llvmModule), std::move(machine));
}

FailureOr<std::string> translateToLLVMIR(ModuleOp module, const GpuTarget &target) {
  llvm::LLVMContext llvmContext;
  auto built = buildLLVMModule(module, target, llvmContext);
  if (failed(built))
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  built->first->print(os, nullptr);
  return text;
}

FailureOr<std::string> translateToPTX(ModuleOp module, const GpuTarget &target) {
  llvm::LLVMContext llvmContext;
  auto built = buildLLVMModule(module, target, llvmContext);
  if (failed(built))
    return failure();
  llvm::SmallString<0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager codegen;
  if (built->second->addPassesToEmitFile(codegen, os, nullptr,
                                         llvm::CodeGenFileType::AssemblyFile)) {
    module.emitError("the NVPTX backend cannot emit assembly");
    return failure();
  }
  codegen.run(*built->first);
  return std::string(ptx.str());
}

} // namespace tilec
