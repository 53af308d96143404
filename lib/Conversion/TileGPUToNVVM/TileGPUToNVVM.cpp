//===- TileGPUToNVVM.cpp - the convert-tilegpu-to-nvvm pass and its types -===//

#include "Common.h"

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Passes.h"
#include "tilec/Support/Exp2Polynomial.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"

#include <cmath>

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
  // Global pointers, and descriptors as (base, shape..., strides...).
  addConversion([](tilec::tile::PointerType type) {
    return LLVM::LLVMPointerType::get(type.getContext(), kGlobalSpace);
  });
  addConversion([](tilec::tile::TensorDescType type) {
    MLIRContext *context = type.getContext();
    SmallVector<Type> members{LLVM::LLVMPointerType::get(context, kGlobalSpace)};
    members.append(type.getRank(), IntegerType::get(context, 32));
    members.append(type.getRank(), IntegerType::get(context, 64));
    return LLVM::LLVMStructType::getLiteral(context, members);
  });
}

namespace {

/// A distributed tile, or nothing.
static bool isTile(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa_and_nonnull<DistributedLayoutAttr>(tensor.getEncoding());
}

/// `op` reads or makes a distributed tile (then this conversion must
/// lower it; casts the conversion itself inserts aside).
static bool touchesTiles(Operation *op) {
  if (isa<UnrealizedConversionCastOp>(op))
    return false;
  return llvm::any_of(op->getOperandTypes(), isTile) ||
         llvm::any_of(op->getResultTypes(), isTile);
}

/// What no pattern lowers: an op of the tile dialect (or any other) on
/// distributed tiles. Named, instead of a generic legalization failure.
struct UnsupportedTileOp : ConversionPattern {
  UnsupportedTileOp(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value>,
                                ConversionPatternRewriter &) const override {
    bool hasPattern = isa<TileGPUDialect, arith::ArithDialect, math::MathDialect>(
                          op->getDialect()) ||
                      isa<tilec::tile::ReduceOp, tilec::tile::ExpandDimsOp,
                          tilec::tile::BroadcastOp, tilec::tile::LoadBlockOp,
                          tilec::tile::StoreBlockOp, tilec::tile::AtomicAddBlockOp,
                          tilec::tile::SplatOp, tilec::tile::IotaOp,
                          tilec::tile::CastOp, tilec::tile::ReshapeOp, tilec::tile::TransOp,
                          tilec::tile::AddPtrOp, tilec::tile::LoadOp, tilec::tile::LoadScalarOp,
                          tilec::tile::StoreOp, tilec::tile::ScaleRowsOp>(op);
    if (!touchesTiles(op) || hasPattern || op->hasTrait<OpTrait::IsTerminator>() ||
        op->getNumRegions())
      return failure();
    if (isa<tilec::tile::DotOp>(op))
      return op->emitOpError("is lowered by tilegpu-lower-dots (to tilegpu.mma or "
                             "tilegpu.warpgroup_dot) before convert-tilegpu-to-nvvm");
    return op->emitOpError("on distributed tiles is not lowered by convert-tilegpu-to-nvvm "
                           "yet (such kernels lower through tile-to-llvm)");
  }
};

/// A splat tile constant: its value in every register.
struct TileConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(arith::ConstantOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isTile(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a tile");
    auto dense = dyn_cast<SplatElementsAttr>(op.getValue());
    if (!dense)
      return op.emitOpError("expected a splat tile constant");
    Type type = getTypeConverter()->convertType(op.getType());
    Value scalar = LLVM::ConstantOp::create(rewriter, op.getLoc(),
                                            dense.getSplatValue<TypedAttr>());
    Value registers = LLVM::UndefOp::create(rewriter, op.getLoc(), type);
    for (int64_t i = 0, e = cast<LLVM::LLVMStructType>(type).getBody().size(); i < e; ++i)
      registers = LLVM::InsertValueOp::create(rewriter, op.getLoc(), registers, scalar, i);
    rewriter.replaceOp(op, registers);
    return success();
  }
};

/// One PTX instruction on an f32 register, as inline assembly (no NVVM op
/// says these; docs/tilegpu.md lists the cases).
static Value approxF32(OpBuilder &b, Location loc, StringRef instruction, Value x) {
  std::string text = (instruction + " $0, $1;").str();
  return LLVM::InlineAsmOp::create(b, loc, b.getF32Type(), ValueRange{x},
                                   b.getStringAttr(text), b.getStringAttr("=f,f"),
                                   /*has_side_effects=*/UnitAttr(), UnitAttr(),
                                   LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

/// f32 math that NVPTX has no lowering for, or a slower one: exp2, log2 and
/// tanh by the approximate instructions (exp2 flushes subnormal results to
/// zero: one MUFU.EX2), exp and log through them. Null for other ops.
static Value approximateMath(OpBuilder &b, Location loc, Operation *op, ValueRange operands) {
  if (op->getNumOperands() != 1 || !operands[0].getType().isF32())
    return {};
  Value x = operands[0];
  auto scale = [&](Value v, double factor) {
    Value c = LLVM::ConstantOp::create(b, loc, b.getF32Type(), b.getF32FloatAttr(factor));
    return LLVM::FMulOp::create(b, loc, v, c).getResult();
  };
  if (isa<math::Exp2Op>(op))
    return approxF32(b, loc, "ex2.approx.ftz.f32", x);
  if (isa<math::ExpOp>(op))
    return approxF32(b, loc, "ex2.approx.ftz.f32", scale(x, M_LOG2E));
  if (isa<math::Log2Op>(op))
    return approxF32(b, loc, "lg2.approx.f32", x);
  if (isa<math::LogOp>(op))
    return scale(approxF32(b, loc, "lg2.approx.f32", x), M_LN2);
  if (isa<math::TanhOp>(op))
    return approxF32(b, loc, "tanh.approx.f32", x);
  return {};
}

/// exp2(x) for x <= 127 on the FMA pipes (include/tilec/Support/
/// Exp2Polynomial.h gives the steps and their error).
static Value exp2ByPolynomial(OpBuilder &b, Location loc, Value x) {
  using namespace tilec::exp2poly;
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto f = [&](float v) { return LLVM::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(v)); };
  auto i = [&](int32_t v) { return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v)); };
  Value clamped = LLVM::MaxNumOp::create(b, loc, x, f(kLowest));
  Value round = f(kRound);
  Value t = LLVM::FAddOp::create(b, loc, clamped, round);
  Value fraction = LLVM::FSubOp::create(b, loc, clamped, LLVM::FSubOp::create(b, loc, t, round));
  Value p = LLVM::FMAOp::create(b, loc, f(kC3), fraction, f(kC2));
  p = LLVM::FMAOp::create(b, loc, p, fraction, f(kC1));
  p = LLVM::FMAOp::create(b, loc, p, fraction, f(1.0f));
  Value exponent =
      LLVM::ShlOp::create(b, loc, LLVM::BitcastOp::create(b, loc, i32, t), i(kExponentShift));
  Value scale = LLVM::BitcastOp::create(
      b, loc, f32, LLVM::AddOp::create(b, loc, exponent, i(kExponentBias << kExponentShift)));
  return LLVM::FMulOp::create(b, loc, p, scale);
}

/// One in how many of the softmax exp2 registers `op` may compute by
/// exp2ByPolynomial (the module's tilec.target exp2_on_fma), or 0.
static int64_t exp2OnFmaPeriod(Operation *op) {
  if (!isa<math::Exp2Op>(op) || !op->hasAttr(tilec::kSoftmaxExp2AttrName))
    return 0;
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<DictionaryAttr>("tilec.target") : DictionaryAttr();
  auto period = target ? target.getAs<IntegerAttr>("exp2_on_fma") : IntegerAttr();
  return period ? std::max<int64_t>(0, period.getInt()) : 0;
}

/// An elementwise arith or math op on tiles of one layout: the same op on
/// each register (the online softmax's exp2 on one register in
/// exp2OnFmaPeriod by a polynomial).
struct ElementwiseTileLowering : ConversionPattern {
  ElementwiseTileLowering(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1, context) {}
  LogicalResult matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<arith::ArithDialect, math::MathDialect>(op->getDialect()) ||
        op->getNumResults() != 1 || isa<arith::ConstantOp>(op) ||
        !isTile(op->getResult(0).getType()))
      return rewriter.notifyMatchFailure(op, "not elementwise on tiles");
    auto layout = cast<RankedTensorType>(op->getResult(0).getType()).getEncoding();
    for (Value operand : op->getOperands())
      if (cast<RankedTensorType>(operand.getType()).getEncoding() != layout)
        return op->emitOpError("expected operands in the result's layout (insert "
                               "tilegpu.convert_layout)");
    Location loc = op->getLoc();
    Type resultType = getTypeConverter()->convertType(op->getResult(0).getType());
    Type scalar = cast<RankedTensorType>(op->getResult(0).getType()).getElementType();
    Value result = LLVM::UndefOp::create(rewriter, loc, resultType);
    const int64_t period = exp2OnFmaPeriod(op);
    for (int64_t i = 0, e = cast<LLVM::LLVMStructType>(resultType).getBody().size(); i < e;
         ++i) {
      SmallVector<Value> scalars;
      for (Value operand : operands)
        scalars.push_back(LLVM::ExtractValueOp::create(rewriter, loc, operand, i));
      Value value = period && i % period == period - 1
                        ? exp2ByPolynomial(rewriter, loc, scalars[0])
                        : approximateMath(rewriter, loc, op, scalars);
      if (!value) {
        OperationState state(loc, op->getName(), scalars, TypeRange{scalar}, op->getAttrs());
        value = rewriter.create(state)->getResult(0);
      }
      result = LLVM::InsertValueOp::create(rewriter, loc, result, value, i);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A kernel (`tilegpu.kernel`) becomes the `llvm.func` with `nvvm.kernel`
/// it is launched as, arguments converted, its other attributes kept
/// (`nvvm.reqntid`, `tilegpu.shared_bytes`, `tilec.aligned_args`).
struct KernelFuncLowering : OpConversionPattern<func::FuncOp> {
  KernelFuncLowering(const TypeConverter &converter, MLIRContext *context)
      : OpConversionPattern(converter, context, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(func::FuncOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op->hasAttr(kKernelAttrName) || op.isExternal())
      return rewriter.notifyMatchFailure(op, "not a kernel");
    if (op.getNumResults())
      return op.emitOpError("is a kernel (tilegpu.kernel) and may not return values");
    TypeConverter::SignatureConversion signature(op.getNumArguments());
    for (auto [i, type] : llvm::enumerate(op.getArgumentTypes())) {
      Type converted = getTypeConverter()->convertType(type);
      if (!converted)
        return op.emitOpError("has a kernel argument of type ")
               << type << " that has no LLVM type";
      signature.addInputs(i, converted);
    }
    auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                            signature.getConvertedTypes());
    auto kernel = LLVM::LLVMFuncOp::create(rewriter, op.getLoc(), op.getName(), type);
    for (NamedAttribute attr : op->getDiscardableAttrs())
      if (attr.getName() != kKernelAttrName)
        kernel->setAttr(attr.getName(), attr.getValue());
    kernel->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), rewriter.getUnitAttr());
    // A tensor map is a 128-byte CUtensorMap passed by value, aligned to 64
    // bytes and read in place (__grid_constant__): TMA takes its address.
    for (auto [i, type] : llvm::enumerate(op.getArgumentTypes()))
      if (isa<TensorMapType>(type)) {
        auto bytes = LLVM::LLVMArrayType::get(rewriter.getI8Type(), 128);
        kernel.setArgAttr(i, LLVM::LLVMDialect::getByValAttrName(), TypeAttr::get(bytes));
        kernel.setArgAttr(i, LLVM::LLVMDialect::getAlignAttrName(), rewriter.getI64IntegerAttr(64));
        kernel.setArgAttr(i, NVVM::NVVMDialect::getGridConstantAttrName(), rewriter.getUnitAttr());
      }
    rewriter.inlineRegionBefore(op.getBody(), kernel.getBody(), kernel.end());
    if (failed(rewriter.convertRegionTypes(&kernel.getBody(), *getTypeConverter(), &signature)))
      return failure();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The return of a kernel made an llvm.func.
struct KernelReturnLowering : OpConversionPattern<func::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(func::ReturnOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!isa<LLVM::LLVMFuncOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not in a kernel");
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                   RewritePatternSet &patterns) {
  populateTileGPUSyncToNVVMPatterns(converter, patterns);
  populateTileGPUMemoryToNVVMPatterns(converter, patterns);
  populateTileGPUMmaToNVVMPatterns(converter, patterns);
  populateTileGPUReduceToNVVMPatterns(converter, patterns);
  populateTileGPUGlobalToNVVMPatterns(converter, patterns);
  populateTileGPUShapeToNVVMPatterns(converter, patterns);
  patterns.add<TileConstantLowering, ElementwiseTileLowering, UnsupportedTileOp,
               KernelFuncLowering, KernelReturnLowering>(converter, patterns.getContext());
}

namespace {

struct ConvertTileGPUToNVVM
    : public tilec::tilegpu::impl::ConvertTileGPUToNVVMBase<ConvertTileGPUToNVVM> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    declareSharedMemory(module);
    declareTileCounters(module);
    markReadOnlyGathers(module);
    auto recorded = module->getAttrOfType<DictionaryAttr>("tilec.target");
    auto aligned = recorded ? recorded.getAs<BoolAttr>("assume_aligned") : BoolAttr();
    planVectorBlockAccesses(module, aligned && aligned.getValue());
    TileGPUTypeConverter converter(&getContext());
    RewritePatternSet patterns(&getContext());
    populateTileGPUToNVVMPatterns(converter, patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<TileGPUDialect>();
    target.addLegalDialect<LLVM::LLVMDialect, NVVM::NVVMDialect>();
    // Every op on distributed tiles is converted (or reported); the rest
    // stays for the upstream conversions.
    target.markUnknownOpDynamicallyLegal([](Operation *op) { return !touchesTiles(op); });
    target.addIllegalOp<tilec::tile::MakeDescOp, tilec::tile::ProgramIdOp,
                        tilec::tile::NumProgramsOp, tilec::tile::CastOp, tilec::tile::AddPtrOp,
                        tilec::tile::LoadScalarOp, tilec::tile::LastArrivalOp>();
    // Kernel signatures, calls, returns and loops that carry tilegpu values
    // take their LLVM types.
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return !op->hasAttr(kKernelAttrName) && converter.isSignatureLegal(op.getFunctionType());
    });
    target.addDynamicallyLegalOp<func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::ReturnOp>([&](Operation *op) {
      return !isa<LLVM::LLVMFuncOp>(op->getParentOp()) && converter.isLegal(op);
    });
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns, target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }

  /// `@<kernel>_tiles`, zero at load, for each kernel that claims tiles.
  static void declareTileCounters(ModuleOp module) {
    OpBuilder b(module.getContext());
    b.setInsertionPointToStart(module.getBody());
    module.walk([&](ClaimTileOp claim) {
      std::string name = tileCounterName(claim->getParentOfType<FunctionOpInterface>().getName());
      if (module.lookupSymbol(name))
        return;
      LLVM::GlobalOp::create(b, module.getLoc(), b.getI32Type(), /*isConstant=*/false,
                             LLVM::Linkage::Internal, name, b.getI32IntegerAttr(0),
                             /*alignment=*/4, kGlobalSpace);
    });
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
