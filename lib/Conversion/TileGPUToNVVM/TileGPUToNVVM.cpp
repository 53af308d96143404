//===- TileGPUToNVVM.cpp - the convert-tilegpu-to-nvvm pass and its types -===//

#include "Common.h"

#include "tilec/Dialect/TileGPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_CONVERTTILEGPUTONVVM
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;

TileGPUTypeConverter::TileGPUTypeConverter(MLIRContext *context) : LLVMTypeConverter(context) {
  addConversion([](SharedMemoryType type) { return sharedPointer(type.getContext()); });
  addConversion([](MBarrierType type) { return sharedPointer(type.getContext()); });
  addConversion(
      [](TensorMapType type) { return LLVM::LLVMPointerType::get(type.getContext()); });
  addConversion([](AsyncTokenType type) { return IntegerType::get(type.getContext(), 32); });
  // One thread's registers of a distributed tile, in register order.
  addConversion([this](RankedTensorType type) -> std::optional<Type> {
    FailureOr<tilec::LinearLayout> layout = getLinearLayout(type);
    if (failed(layout))
      return std::nullopt;
    Type element = convertType(type.getElementType());
    if (!element)
      return std::nullopt;
    SmallVector<Type> registers(layout->numRegs(), element);
    return LLVM::LLVMStructType::getLiteral(type.getContext(), registers);
  });
  addConversion([this](DotTokenType type) { return convertType(type.getValueType()); });
}

void tilec::tilegpu::populateTileGPUToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  populateTileGPUSyncToNVVMPatterns(converter, patterns);
  populateTileGPUMemoryToNVVMPatterns(converter, patterns);
  populateTileGPUMmaToNVVMPatterns(converter, patterns);
}

namespace {

struct ConvertTileGPUToNVVM
    : public tilec::tilegpu::impl::ConvertTileGPUToNVVMBase<ConvertTileGPUToNVVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    declareSharedMemory(module);
    TileGPUTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    populateTileGPUToNVVMPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<TileGPUDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect, arith::ArithDialect,
                           scf::SCFDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // Kernel signatures, calls, returns and loops that carry tilegpu values
    // take their LLVM types.
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp, func::ReturnOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  /// `@tilec_smem`, when some op of the module places shared memory.
  static void declareSharedMemory(ModuleOp module) {
    bool placesSharedMemory = false;
    module.walk([&](Operation *op) {
      if (isa<AllocOp, MBarrierCreateOp>(op))
        placesSharedMemory = true;
    });
    if (!placesSharedMemory || module.lookupSymbol(kSharedMemorySymbol))
      return;
    OpBuilder b(module.getContext());
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(b, module.getLoc(), LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External, kSharedMemorySymbol,
                           Attribute(), /*alignment=*/1024, kSharedSpace);
  }
};

} // namespace
