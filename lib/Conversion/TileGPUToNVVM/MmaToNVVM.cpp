//===- MmaToNVVM.cpp - matrix multiplies and their waits ------------------===//
//
// Inline assembly used here (no NVVM op says it): the empty asm with side
// effects that pins accumulators after `wgmma.wait_group`, so that LLVM
// cannot move their reads above the wait (docs/gpu.md lists every such case).
//
//===----------------------------------------------------------------------===//

#include "Common.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;

namespace {

/// `registers` (an LLVM struct of one thread's registers) passed through an
/// empty asm with side effects, each register tied to an output: their reads
/// stay after it.
static Value pinRegisters(OpBuilder &b, Location loc, Value registers) {
  auto type = cast<LLVM::LLVMStructType>(registers.getType());
  SmallVector<Value> values;
  std::string outputs, inputs;
  for (auto [i, element] : llvm::enumerate(type.getBody())) {
    values.push_back(LLVM::ExtractValueOp::create(b, loc, registers, int64_t(i)));
    outputs += element.isF32() ? "=f," : "=r,";
    inputs += (i ? "," : "") + std::to_string(i);
  }
  return LLVM::InlineAsmOp::create(b, loc, type, values, b.getStringAttr(""),
                                   b.getStringAttr(outputs + inputs), b.getUnitAttr(),
                                   UnitAttr(), LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(),
                                   ArrayAttr())
      .getResult(0);
}

/// `wgmma.wait_group pending`, then the accumulators of the awaited tokens,
/// pinned after the wait.
struct DotWaitLowering : OpConversionPattern<DotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    SmallVector<Value> results;
    for (Value registers : adaptor.getTokens())
      results.push_back(pinRegisters(rewriter, loc, registers));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUMmaToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                      RewritePatternSet &patterns) {
  patterns.add<DotWaitLowering>(converter, patterns.getContext());
}
