//===- MemoryToNVVM.cpp - shared buffers, cp.async groups, TMA ------------===//

#include "Common.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;

namespace {

/// The buffer's address in the kernel's dynamic shared memory.
struct AllocLowering : OpConversionPattern<AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AllocOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    if (!op.getOffset())
      return op.emitOpError("expected an offset: run tilegpu-allocate-shared-memory first");
    rewriter.replaceOp(op, sharedAddress(rewriter, op.getLoc(), *op.getOffset()));
    return success();
  }
};

/// `buffer + index * slot bytes`.
struct SlotLowering : OpConversionPattern<SlotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(SlotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t slotBytes = op.getResult().getType().getSizeInBytes();
    Value bytes = LLVM::MulOp::create(rewriter, loc, adaptor.getIndex(),
                                      constI32(rewriter, loc, slotBytes));
    rewriter.replaceOp(op, byteOffset(rewriter, loc, adaptor.getBuffer(), bytes));
    return success();
  }
};

/// `cp.async.commit_group`; the group's token is a placeholder.
struct AsyncCommitGroupLowering : OpConversionPattern<AsyncCommitGroupOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    NVVM::CpAsyncCommitGroupOp::create(rewriter, op.getLoc());
    rewriter.replaceOp(op, constI32(rewriter, op.getLoc(), 0));
    return success();
  }
};

struct AsyncWaitLowering : OpConversionPattern<AsyncWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncWaitGroupOp>(op, op.getPending());
    return success();
  }
};

/// TMA coordinates are innermost first; tilegpu's, like descriptor offsets,
/// outermost first.
static SmallVector<Value> tmaCoordinates(ValueRange coords) {
  return SmallVector<Value>(llvm::reverse(coords));
}

/// The lane of each warp that issues a TMA copy.
static Value electedLane(OpBuilder &b, Location loc) {
  return NVVM::ElectSyncOp::create(b, loc, b.getI1Type(), Value());
}

/// `cp.async.bulk.tensor...global.mbarrier::complete_tx::bytes`, issued by
/// one elected lane of each warp that runs it.
struct TMALoadLowering : OpConversionPattern<TMALoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMALoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, adaptor.getDst(), adaptor.getMap(), tmaCoordinates(adaptor.getCoords()),
        barrier, /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
        /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
        NVVM::CTAGroupKindAttr(), electedLane(rewriter, loc));
    rewriter.eraseOp(op);
    return success();
  }
};

/// `cp.async.bulk.tensor...global.shared::cta` and its bulk commit group,
/// issued by one elected lane of each warp that runs it.
struct TMAStoreLowering : OpConversionPattern<TMAStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMAStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, loc, adaptor.getMap(), adaptor.getSrc(), tmaCoordinates(adaptor.getCoords()),
        /*l2CacheHint=*/Value(), NVVM::TMAStoreMode::TILE, electedLane(rewriter, loc));
    NVVM::CpAsyncBulkCommitGroupOp::create(rewriter, loc);
    rewriter.eraseOp(op);
    return success();
  }
};

/// `cp.async.bulk.wait_group.read pending`.
struct TMAStoreWaitLowering : OpConversionPattern<TMAStoreWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMAStoreWaitOp op, OpAdaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NVVM::CpAsyncBulkWaitGroupOp>(op, op.getPending(),
                                                              rewriter.getUnitAttr());
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUMemoryToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                         RewritePatternSet &patterns) {
  patterns.add<AllocLowering, SlotLowering, AsyncCommitGroupLowering, AsyncWaitLowering,
               TMALoadLowering, TMAStoreLowering, TMAStoreWaitLowering>(converter,
                                                                        patterns.getContext());
}
