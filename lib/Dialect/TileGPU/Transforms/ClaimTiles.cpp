//===- ClaimTiles.cpp - persistent programs claim their tiles from a counter ===//
//
// A warp-specialized persistent kernel marked tilec.tile_counter
// (tile-persistent-grid's tile-counter) takes its tiles in the order its
// programs come free instead of a static one (FlashAttention-3's scheduler
// for causal masks): a program's first tile is its program id, and each
// next one is claimed from a global counter, so a program that drew short
// tiles takes more of them. The producer warp claims (it runs ahead of the
// consumers) and hands each tile index to the consumer warpgroups through
// a two-slot buffer guarded by a full and an empty mbarrier:
//
//   %next = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
//   %full = tilegpu.mbarrier_create {arrivals = 1}
//   %empty = tilegpu.mbarrier_create {arrivals = <consumer threads>}
//   tilegpu.warp_specialize
//     role {                                           // producer, warp 0
//       %t, %k = scf.while (%t = program_id, %k = 0) { %t < T } do {
//         hand(%t, %k)    // wait empty[k % 2], k / 2 + 1; thread 0:
//                         // store next[k % 2] = t, arrive full[k % 2]
//         ... the tile's copies (positions from %k) ...
//         %c = tilegpu.claim_tile last T - 1
//         yield %c + num_programs, %k + 1
//       }
//       hand(%t, %k)      // an index past the last tile: the consumers stop
//     }
//     role {                                           // consumers
//       scf.while (%k = 0) {
//         wait full[k % 2], k / 2; %t = next[k % 2]; arrive empty[k % 2]
//         condition(%t < T) %t, %k
//       } do { ... the tile %t ...; yield %k + 1 }
//     }
//
// Every program claims until a claim comes back past the last tile (one
// failed claim each), so a launch's claims are 0, 1, ..., T - 1 and the
// lane that draws T - 1 resets the counter for the next launch
// (tilegpu.claim_tile). tilegpu-pipeline-streams made both tile loops
// count their tiles in an iteration argument (0, then + 1), which gives
// the tile streams' and the handover's mbarrier phases. Runs after the
// passes that expect the tile loops to be scf.for (tilegpu-tma-stores,
// tilegpu-insert-barriers, tilegpu-ping-pong) and before shared memory is
// allocated.
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "tilec/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUCLAIMTILES
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::streams;

namespace {

/// Slots of the tile-index buffer: the producer may hand over the next
/// tile while the consumers still read this one's index.
constexpr int64_t kIndexSlots = 2;

/// A role's loop over its tiles, and which iteration argument counts them.
struct TileLoop {
  scf::ForOp loop;
  unsigned count = 0;
};

/// The iteration argument of `loop` that counts its iterations (starts at
/// 0, goes on + 1), if any.
std::optional<unsigned> countArgument(scf::ForOp loop) {
  Operation *yield = loop.getBody()->getTerminator();
  for (auto [i, init, arg] : llvm::enumerate(loop.getInitArgs(), loop.getRegionIterArgs())) {
    auto add = yield->getOperand(i).getDefiningOp<arith::AddIOp>();
    if (!matchPattern(init, m_Zero()) || !add)
      continue;
    if ((add.getLhs() == arg && matchPattern(add.getRhs(), m_One())) ||
        (add.getRhs() == arg && matchPattern(add.getLhs(), m_One())))
      return i;
  }
  return std::nullopt;
}

/// The tile loop of `role`: its one outermost scf.for that counts its
/// iterations.
FailureOr<TileLoop> tileLoopOf(Region &role) {
  SmallVector<TileLoop> found;
  role.walk([&](scf::ForOp loop) {
    auto outer = loop->getParentOfType<scf::ForOp>();
    if (outer && role.isAncestor(outer->getParentRegion()))
      return; // nested in another loop of the role
    if (std::optional<unsigned> count = countArgument(loop))
      found.push_back({loop, *count});
  });
  if (found.size() != 1)
    return failure();
  return found.front();
}

/// The tile-index buffer and its barriers.
struct Handover {
  Value next, full, empty;
};

/// Replaces `loop` by an scf.while whose "after" region is the loop's body
/// for tile index `t` (its induction variable's uses) and iteration
/// arguments as the loop's. The while starts from `operands`; `condition`
/// builds its "before" region from the region's arguments and returns the
/// tile index and iteration arguments to go on with, while the index is
/// below the loop's upper bound. The while's results are the last tile
/// index, then the loop's results.
scf::WhileOp replaceByWhile(RewriterBase &rewriter, scf::ForOp loop, ValueRange operands,
                            function_ref<Value(OpBuilder &, ValueRange)> condition) {
  Location loc = loop.getLoc();
  SmallVector<Type> carried{rewriter.getI32Type()};
  llvm::append_range(carried, loop.getResultTypes());
  rewriter.setInsertionPoint(loop);
  auto whileOp = scf::WhileOp::create(rewriter, loc, carried, operands);
  SmallVector<Location> operandLocs(operands.size(), loc), carriedLocs(carried.size(), loc);
  Block *before = rewriter.createBlock(&whileOp.getBefore(), {}, ValueRange(operands).getTypes(),
                                       operandLocs);
  Value tile = condition(rewriter, before->getArguments());
  SmallVector<Value> goOn{tile};
  auto iterArgs = before->getArguments().take_back(loop.getNumRegionIterArgs());
  llvm::append_range(goOn, iterArgs);
  Value more = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::slt, tile,
                                     loop.getUpperBound());
  scf::ConditionOp::create(rewriter, loc, more, goOn);
  Block *after = rewriter.createBlock(&whileOp.getAfter(), {}, carried, carriedLocs);
  rewriter.mergeBlocks(loop.getBody(), after, after->getArguments());
  rewriter.replaceOp(loop, whileOp.getResults().drop_front());
  return whileOp;
}

/// The producer hands tile index `tile`, its `count`-th, to the consumers:
/// once they have read the index two tiles before, thread 0 writes it and
/// arrives.
void handOver(OpBuilder &b, Location loc, const Handover &handover, Value tile, Value count) {
  Position at = positionAt(b, loc, count, kIndexSlots);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  MBarrierWaitOp::create(b, loc, handover.empty, at.slot,
                         arith::AddIOp::create(b, loc, at.round, one));
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value thread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                        arith::ConstantIntOp::create(b, loc, 0, 32));
  auto writer = scf::IfOp::create(b, loc, TypeRange{}, thread0, /*withElse=*/false);
  OpBuilder then = OpBuilder::atBlockBegin(&writer.getThenRegion().front());
  ScalarStoreOp::create(then, loc, tile, handover.next, at.slot);
  MBarrierArriveOp::create(then, loc, handover.full, at.slot, IntegerAttr());
}

/// The producer's tile loop, its steps replaced by claims.
void claimInProducer(RewriterBase &rewriter, TileLoop tiles, const Handover &handover) {
  scf::ForOp loop = tiles.loop;
  Location loc = loop.getLoc();
  Value total = loop.getUpperBound(), step = loop.getStep();
  rewriter.setInsertionPoint(loop);
  Value last = arith::SubIOp::create(rewriter, loc, total,
                                     arith::ConstantIntOp::create(rewriter, loc, 1, 32));
  SmallVector<Value> operands{loop.getLowerBound()};
  llvm::append_range(operands, loop.getInitArgs());
  unsigned count = tiles.count;
  scf::WhileOp whileOp = replaceByWhile(
      rewriter, loop, operands, [](OpBuilder &, ValueRange args) { return args.front(); });
  Block *after = whileOp.getAfterBody();
  OpBuilder top = OpBuilder::atBlockBegin(after);
  handOver(top, loc, handover, after->getArgument(0), after->getArgument(1 + count));
  Operation *yield = after->getTerminator();
  OpBuilder end(yield);
  Value claimed = ClaimTileOp::create(end, loc, end.getI32Type(), last);
  SmallVector<Value> next{arith::AddIOp::create(end, loc, claimed, step)};
  llvm::append_range(next, yield->getOperands());
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<scf::YieldOp>(yield, next);
  // Past the last tile: the index that stops the consumers.
  OpBuilder afterLoop(whileOp->getBlock(), std::next(whileOp->getIterator()));
  handOver(afterLoop, loc, handover, whileOp.getResult(0), whileOp.getResult(1 + count));
}

/// The consumers' tile loop, each tile index read from the producer's.
void claimInConsumers(RewriterBase &rewriter, TileLoop tiles, const Handover &handover) {
  scf::ForOp loop = tiles.loop;
  Location loc = loop.getLoc();
  unsigned count = tiles.count;
  replaceByWhile(rewriter, loop, loop.getInitArgs(), [&](OpBuilder &b, ValueRange args) {
    Position at = positionAt(b, loc, args[count], kIndexSlots);
    MBarrierWaitOp::create(b, loc, handover.full, at.slot, at.round);
    Value tile = ScalarLoadOp::create(b, loc, b.getI32Type(), handover.next, at.slot);
    MBarrierArriveOp::create(b, loc, handover.empty, at.slot, IntegerAttr());
    return tile;
  });
}

LogicalResult claimTiles(FunctionOpInterface kernel) {
  Block &body = kernel.getFunctionBody().front();
  auto roles = llvm::to_vector(body.getOps<WarpSpecializeOp>());
  if (roles.size() != 1) {
    kernel.emitWarning("tilec.tile_counter: not warp-specialized, the tiles keep their static "
                       "order");
    return success();
  }
  WarpSpecializeOp specialized = roles.front();
  if (specialized.getRoles().size() != 2)
    return kernel.emitError("tilec.tile_counter: expected a producer and a consumer role");
  FailureOr<TileLoop> producer = tileLoopOf(specialized.getRoles()[0]);
  FailureOr<TileLoop> consumers = tileLoopOf(specialized.getRoles()[1]);
  if (failed(producer) || failed(consumers))
    return kernel.emitError("tilec.tile_counter: expected one loop over the tiles, counting them, "
                            "in each role (tilegpu-pipeline-streams with warp-specialize)");

  // The buffer and barriers, made before the roles (mbarrier creates next
  // to the others, whose initialization they share).
  MLIRContext *context = kernel->getContext();
  Location loc = specialized.getLoc();
  Operation *lastCreate = nullptr;
  for (auto create : body.getOps<MBarrierCreateOp>())
    if (create->isBeforeInBlock(specialized))
      lastCreate = create;
  OpBuilder b(context);
  if (lastCreate)
    b.setInsertionPointAfter(lastCreate);
  else
    b.setInsertionPoint(specialized);
  Handover handover;
  // Four i32s: a row of 16 bytes, as shared buffers' rows are.
  auto indexType = SharedMemoryType::get(context, {4}, b.getI32Type(), PaddedAttr::get(context, 0));
  handover.next = AllocOp::create(b, loc, indexType, IntegerAttr());
  auto barriers = MBarrierType::get(context, kIndexSlots);
  int32_t consumerThreads = specialized.getWarps()[1] * 32;
  handover.full = MBarrierCreateOp::create(b, loc, barriers, b.getI32IntegerAttr(1), IntegerAttr());
  handover.empty = MBarrierCreateOp::create(b, loc, barriers, b.getI32IntegerAttr(consumerThreads),
                                            IntegerAttr());

  IRRewriter rewriter(context);
  claimInProducer(rewriter, *producer, handover);
  claimInConsumers(rewriter, *consumers, handover);
  kernel->removeAttr(tilec::kTileCounterAttrName);
  return success();
}

struct TileGPUClaimTiles : public tilec::tilegpu::impl::TileGPUClaimTilesBase<TileGPUClaimTiles> {
  void runOnOperation() override {
    SmallVector<FunctionOpInterface> kernels;
    getOperation().walk([&](FunctionOpInterface kernel) {
      if (kernel->hasAttr(tilec::kTileCounterAttrName) && !kernel.isExternal())
        kernels.push_back(kernel);
    });
    for (FunctionOpInterface kernel : kernels)
      if (failed(claimTiles(kernel)))
        return signalPassFailure();
  }
};

} // namespace
