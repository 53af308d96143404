//===- TileToLLVMControlFlow.cpp - scf.for and scf.if over tiles ----------===//
//
// Loops and branches carry tiles as their registers, flattened into scalar
// iter_args and results and bound back afterwards. A loop whose block loads
// feed only dots streams them through cp.async rings (the current slot is one
// more carried value) and hands the ring on to the next loop over the same
// blocks.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

namespace tilec::lowering {

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::flatten(ValueRange values,
                                           ArrayRef<const LinearLayout *> targetLayouts) {
  SmallVector<Value> flat;
  for (auto [value, layout] : llvm::zip(values, targetLayouts)) {
    if (layout) {
      TileRegs t = operandIn(value, *layout);
      flat.append(t.regs.begin(), t.regs.end());
    } else {
      flat.push_back(scalars[value]);
    }
  }
  return flat;
}

void KernelLowering::bindFlattened(ValueRange originals, ValueRange flat) {
  size_t next = 0;
  for (Value original : originals) {
    if (const LinearLayout *l = layouts.lookup(original)) {
      TileRegs t{*l, {}, {}};
      for (int64_t r = 0; r < l->numRegs(); ++r)
        t.regs.push_back(flat[next++]);
      tiles[original] = t;
    } else {
      scalars[original] = flat[next++];
    }
  }
}

LogicalResult KernelLowering::lowerFor(scf::ForOp op) {
  SmallVector<const LinearLayout *> carried;
  for (Value arg : op.getRegionIterArgs())
    carried.push_back(layouts.lookup(arg));
  SmallVector<Value> inits = flatten(op.getInitArgs(), carried);
  Value lowerBound = scalars[op.getLowerBound()], upperBound = scalars[op.getUpperBound()];
  Value step = scalars[op.getStep()];
  // Thread-derived values of the code before the loop (its first copies) and
  // after it are computed afresh there too: none lives through the loop.
  renewThreadGeometry();
  // Block loads that feed only dots are streamed by cp.async through rings
  // of shared-memory slots; the current slot is carried as one more value.
  SmallVector<Stream> streams;
  if (!streaming)
    streams = planStreams(op);
  bool streamed = !streams.empty();
  scf::ForOp next = streamed ? nextStreamingLoop(op) : scf::ForOp();
  if (streamed) {
    // Consecutive loops over the same blocks (attention's masked, unmasked
    // and masked loops) share one ring: copies run ahead up to the end of
    // the last of them, and each hands the ring to the next.
    Value chainUpper = upperBound;
    for (scf::ForOp l = next; l; l = nextStreamingLoop(l))
      chainUpper = scalars[l.getUpperBound()];
    Value firstSlot;
    if (handoff && handoff->loop == op) {
      int64_t inFlight = (pipelineStages - 1) * static_cast<int64_t>(streams.size());
      firstSlot = resumeStreams(std::move(streams), lowerBound, chainUpper, step, *handoff);
      awaitResident(inFlight);
    } else {
      startStreams(std::move(streams), lowerBound, chainUpper, step);
      firstSlot = constI32(0);
    }
    inits.push_back(firstSlot);
  } else {
    awaitResident(0);
  }
  handoff.reset();
  LogicalResult status = success();
  auto loop = scf::ForOp::create(
      b, loc, lowerBound, upperBound, step, inits,
      [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        scalars[op.getInductionVar()] = iv;
        if (streamed) {
          streaming->iv = iv;
          streaming->slot = args.back();
          awaitedSlots.clear();
          args = args.drop_back();
        }
        bindFlattened(op.getRegionIterArgs(), args);
        // The body reads the thread index afresh and recomputes what it
        // derives from it (and cheap tiles from outside), so none of it is
        // kept live through the loop in registers.
        ThreadGeometryScope geometry(*this, op);
        Block &body = *op.getBody();
        for (Operation &inner : body.without_terminator())
          if (failed(lower(&inner))) {
            status = failure();
            break;
          }
        waitForAllWgmma();
        SmallVector<Value> yielded =
            succeeded(status) ? flatten(body.getTerminator()->getOperands(), carried)
                              : SmallVector<Value>(args);
        if (streamed) {
          Value slot = streaming->slot;
          Value next = arith::AddIOp::create(b, loc, slot, constI32(1));
          Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next,
                                              constI32(streaming->stages));
          yielded.push_back(arith::SelectOp::create(b, loc, wraps, constI32(0), next));
        }
        scf::YieldOp::create(b, loc, yielded);
      });
  renewThreadGeometry();
  ValueRange results = loop.getResults();
  if (streamed) {
    streaming.reset();
    if (next) {
      // The next block in the ring: lower + ceil((upper - lower) / step) · step
      // (lower itself when the loop ran no iteration).
      Value span = arith::MaxSIOp::create(
          b, loc, arith::SubIOp::create(b, loc, upperBound, lowerBound), constI32(0));
      Value trips = arith::DivUIOp::create(
          b, loc, arith::AddIOp::create(b, loc, span, arith::SubIOp::create(b, loc, step, constI32(1))),
          step);
      handoff = RingHandoff{next, results.back(),
                            arith::AddIOp::create(b, loc, lowerBound,
                                                  arith::MulIOp::create(b, loc, trips, step))};
    } else {
      // The end of the ring's chain: the copies issued ahead past it (empty,
      // but each still writes its slot) land before anything may prime the
      // slots again; a later loop's first copies would race with them.
      NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
    }
    results = results.drop_back();
  }
  bindFlattened(op.getResults(), results);
  return status;
}

LogicalResult KernelLowering::lowerIf(scf::IfOp op) {
  SmallVector<const LinearLayout *> resultLayouts;
  SmallVector<Type> types;
  for (Value result : op.getResults()) {
    const LinearLayout *l = layouts.lookup(result);
    resultLayouts.push_back(l);
    int64_t count = l ? l->numRegs() : 1;
    for (int64_t i = 0; i < count; ++i)
      types.push_back(scalarType(result.getType()));
  }
  auto branch = scf::IfOp::create(b, loc, types, scalars[op.getCondition()],
                                  /*withElseRegion=*/true);
  auto lowerRegion = [&](Region &from, Region &to) -> LogicalResult {
    OpBuilder::InsertionGuard guard(b);
    Block &target = to.front();
    if (!target.empty() && target.back().hasTrait<OpTrait::IsTerminator>())
      target.back().erase();
    b.setInsertionPointToEnd(&target);
    if (from.empty()) {
      scf::YieldOp::create(b, loc, ValueRange{});
      return success();
    }
    for (Operation &inner : from.front().without_terminator())
      if (failed(lower(&inner)))
        return failure();
    scf::YieldOp::create(b, loc, flatten(from.front().getTerminator()->getOperands(),
                                         resultLayouts));
    return success();
  };
  if (failed(lowerRegion(op.getThenRegion(), branch.getThenRegion())) ||
      failed(lowerRegion(op.getElseRegion(), branch.getElseRegion())))
    return failure();
  bindFlattened(op.getResults(), branch.getResults());
  return success();
}

} // namespace tilec::lowering
