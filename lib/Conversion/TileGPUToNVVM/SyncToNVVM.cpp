//===- SyncToNVVM.cpp - barriers, fences, mbarriers and warp roles --------===//
//
// Every op here has an NVVM counterpart; none needs inline assembly.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;

namespace {

struct BarrierLowering : OpConversionPattern<BarrierOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::Barrier0Op>(op);
    return success();
  }
};

/// `bar.sync id, threads`.
struct BarrierSyncLowering : OpConversionPattern<BarrierSyncOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierSyncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value threads = constI32(rewriter, op.getLoc(), op.getThreads());
    NVVM::BarrierOp::create(rewriter, op.getLoc(), Type(), adaptor.getId(), threads,
                            NVVM::BarrierReductionAttr(), Value());
    rewriter.eraseOp(op);
    return success();
  }
};

/// `bar.arrive id, threads`.
struct BarrierArriveLowering : OpConversionPattern<BarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(BarrierArriveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Value threads = constI32(rewriter, op.getLoc(), op.getThreads());
    rewriter.replaceOpWithNewOp<NVVM::BarrierArriveOp>(op, adaptor.getId(), threads);
    return success();
  }
};

/// The thread index (role-relative inside a role) over 128.
struct WarpgroupIdLowering : OpConversionPattern<WarpgroupIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpgroupIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<LLVM::LShrOp>(op, threadIndex(rewriter, loc),
                                              constI32(rewriter, loc, 7));
    return success();
  }
};

/// The thread index (role-relative inside a role) over 32, read from lane 0
/// (`warpUniform`) so that ptxas knows every lane has it.
struct WarpIdLowering : OpConversionPattern<WarpIdOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpIdOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value warp =
        LLVM::LShrOp::create(rewriter, loc, threadIndex(rewriter, loc), constI32(rewriter, loc, 5));
    rewriter.replaceOp(op, warpUniform(rewriter, loc, warp));
    return success();
  }
};

static void fenceProxyAsync(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(b, loc, NVVM::ProxyKind::async_shared,
                             NVVM::SharedSpaceAttr::get(b.getContext(),
                                                        NVVM::SharedSpace::shared_cta));
}

struct FenceLowering : OpConversionPattern<FenceOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(FenceOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    switch (op.getKind()) {
    case FenceKind::async_proxy:
      fenceProxyAsync(rewriter, op.getLoc());
      break;
    case FenceKind::mbarrier_init:
      NVVM::FenceMbarrierInitOp::create(rewriter, op.getLoc());
      break;
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// Thread 0 initializes each barrier; the inits are fenced for the other
/// threads and the async proxy (TMA completes on them) and published by a
/// block barrier.
struct MBarrierCreateLowering : OpConversionPattern<MBarrierCreateOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierCreateOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getOffset())
      return op.emitOpError("expected an offset: run tilegpu-allocate-shared-memory first");
    Location loc = op.getLoc();
    Value base = sharedAddress(rewriter, loc, *op.getOffset());
    Value leader = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq,
                                        threadIndex(rewriter, loc), constI32(rewriter, loc, 0));
    Value arrivals = constI32(rewriter, loc, op.getArrivals());
    for (unsigned i = 0; i < op.getType().getCount(); ++i)
      NVVM::MBarrierInitOp::create(rewriter, loc,
                                   barrierAddress(rewriter, loc, base, constI32(rewriter, loc, i)),
                                   arrivals, leader);
    // The inits are published once, after the last of consecutive creates
    // (buffers between them only name addresses).
    Operation *next = op->getNextNode();
    while (next && isa<AllocOp>(next))
      next = next->getNextNode();
    if (!next || !isa<MBarrierCreateOp>(next)) {
      NVVM::FenceMbarrierInitOp::create(rewriter, loc);
      fenceProxyAsync(rewriter, loc);
      NVVM::Barrier0Op::create(rewriter, loc);
    }
    rewriter.replaceOp(op, base);
    return success();
  }
};

struct MBarrierArriveLowering : OpConversionPattern<MBarrierArriveOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MBarrierArriveOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    if (std::optional<uint32_t> bytes = op.getExpectTx())
      NVVM::MBarrierArriveExpectTxOp::create(rewriter, loc, Type(), barrier,
                                             constI32(rewriter, loc, *bytes),
                                             NVVM::MemScopeKind::CTA, /*relaxed=*/false,
                                             Value());
    else
      NVVM::MBarrierArriveOp::create(rewriter, loc, Type(), barrier, Value(),
                                     NVVM::MemScopeKind::CTA, /*relaxed=*/false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// `mbarrier.try_wait.parity` in a loop (the NVVM op makes the loop).
struct MBarrierWaitLowering : OpConversionPattern<MBarrierWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  /// The suspend-time hint of each try, in nanoseconds (CUTLASS's choice).
  static constexpr int64_t kSuspendHintNs = 0x989680;

  LogicalResult matchAndRewrite(MBarrierWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    Value parity = LLVM::AndOp::create(rewriter, loc, adaptor.getPhase(),
                                       constI32(rewriter, loc, 1));
    rewriter.replaceOpWithNewOp<NVVM::MBarrierTryWaitParityOp>(
        op, barrier, parity, constI32(rewriter, loc, kSuspendHintNs));
    return success();
  }
};

/// Each role runs under `warp in [first, first + warps)`, after moving its
/// register budget up or down from the even share of the register file
/// (`setmaxnreg`); inside it, thread indices count from the role's first
/// thread (`kRoleFirstThread` on the `scf.if`). ptxas honours `setmaxnreg`
/// only in kernels that also say how many blocks share an SM, so the kernel
/// gets `nvvm.minctasm = 1`.
///
/// Where the kernel ends with the roles, each role but the last ends with
/// `exit`: its threads have nothing left to run, and ptxas no longer sees a
/// path from the role's loops into the next role. With that path, values
/// live across both (the shared-memory base) sat in vector registers when
/// the first role's loops were nested (a persistent kernel's producer), and
/// every wgmma descriptor computed from them in the next role needed an
/// R2UR (the persistent d = 128 forward's loop: 578 instructions, 471
/// without).
struct WarpSpecializeLowering : OpConversionPattern<WarpSpecializeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpSpecializeOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t totalWarps = 0;
    for (int32_t warps : op.getWarps())
      totalWarps += warps;
    int64_t evenShare = std::min<int64_t>(256, 65536 / (totalWarps * 32)) / 8 * 8;
    Value warp = LLVM::LShrOp::create(rewriter, loc, threadIndex(rewriter, loc),
                                      constI32(rewriter, loc, 5));
    Operation *next = op->getNextNode();
    const bool kernelEnds = isa<FunctionOpInterface>(op->getParentOp()) && next &&
                            next->hasTrait<OpTrait::ReturnLike>() && next->getNumOperands() == 0;
    const size_t roles = op.getRoles().size();
    int64_t first = 0;
    for (auto [index, role, warps, registers] :
         llvm::enumerate(op.getRoles(), op.getWarps(), op.getRegisters())) {
      Value inRole = LLVM::AndOp::create(
          rewriter, loc,
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::uge, warp,
                               constI32(rewriter, loc, first)),
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, warp,
                               constI32(rewriter, loc, first + warps)));
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, inRole, /*withElse=*/false);
      ifOp->setAttr(kRoleFirstThread, rewriter.getI32IntegerAttr(32 * first));
      ifOp->setAttr(kRoleThreads, rewriter.getI32IntegerAttr(32 * warps));
      ifOp->setAttr(kRoleBarrier, rewriter.getI32IntegerAttr(index + 1));
      rewriter.setInsertionPointToStart(ifOp.thenBlock());
      NVVM::SetMaxRegisterOp::create(rewriter, loc, registers,
                                     registers < evenShare ? NVVM::SetMaxRegisterAction::decrease
                                                           : NVVM::SetMaxRegisterAction::increase);
      rewriter.inlineBlockBefore(&role.front(), ifOp.thenBlock()->getTerminator());
      if (kernelEnds && index + 1 < roles) {
        rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        NVVM::Exit::create(rewriter, loc);
      }
      rewriter.setInsertionPointAfter(ifOp);
      first += warps;
    }
    if (auto kernel = op->getParentOfType<FunctionOpInterface>())
      rewriter.modifyOpInPlace(kernel, [&] {
        kernel->setAttr("nvvm.minctasm", rewriter.getI32IntegerAttr(1));
      });
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUSyncToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                       RewritePatternSet &patterns) {
  patterns.add<BarrierLowering, BarrierSyncLowering, BarrierArriveLowering, WarpgroupIdLowering,
               WarpIdLowering, FenceLowering, MBarrierCreateLowering, MBarrierArriveLowering,
               MBarrierWaitLowering, WarpSpecializeLowering>(converter, patterns.getContext());
}
