//===- WarpSpecializeStreams.cpp - a producer warpgroup fills the TMA rings ===//
//
// tilegpu-pipeline-streams with `warp-specialize`: instead of the threads
// that compute issuing each iteration's copies `stages - 1` iterations
// ahead, a producer warpgroup (one warp of it working) runs every streamed
// loop's iterations on its own and fills the rings as fast as slots free
// up, so the consumers never wait on a block barrier for a slot:
//
//   rings, full[stages] (1 arrival), empty[stages] (one per consumer thread)
//   tilegpu.warp_specialize
//     role warps = 4 registers = P {       // producer
//       if warp 0:
//         for each streamed loop, iteration i (slot i % stages):
//           mbarrier_wait empty[slot], i / stages + 1   // free (odd: at once
//                                                       // the first round)
//           thread 0: mbarrier_arrive full[slot] expect_tx <bytes>
//           tma_load ... into the slot, onto full[slot]
//     }
//     role warps = W registers = C {       // the kernel's body, as it was
//       ... for each streamed loop, iteration i:
//             mbarrier_wait full[slot], i / stages
//             ... the slot replaces the load ...
//             mbarrier_arrive empty[slot]            // every thread, after
//     }                                               // the iteration's reads
//
// The producer recomputes what it needs (loop bounds, coordinates) from
// kernel arguments and grid queries: pure ops of the body, and one-value
// loads of arguments the kernel never writes (a packed sequence's
// offsets), cloned.
// Consecutive loops that stream the same descriptors (attention's key-range
// loops: masked, full, masked) share one set of rings and barriers, their
// iterations numbered on from the previous loops' (so slots and phases run
// on): shared memory for one set, and the producer can fill the next loop's
// first slots while the consumers finish this one. A loop that streams only
// some of those blocks shares them too (the overlapped forward's first step
// on its own: K, no V; its last P·V in a loop of its own: V, no K); its
// iterations fill and announce only its own.
//
// In a persistent kernel (tile-persistent-grid) the streamed loops sit in
// the loop over the logical programs. Both roles then run that loop, the
// iteration count carried from one program's tile to the next: the
// producer fills the rings for the next tile while the consumers finish
// this one (its last P·V, the epilogue, the next Q).
//
// A persistent kernel marked tilec.tile_counter gets both tile loops
// counting their tiles in their last iteration argument, the tile streams'
// positions taken from that count, for tilegpu-claim-tiles to replace the
// loops' steps by claims.
//
// A kernel that is not persistent runs as one such tile (a loop from 0 to
// 1, promoted away afterwards): the blocks it loads once before its loops
// (Q; the dK/dV kernel's K and V) come from the producer on one-slot rings
// that are never refilled (no "empty" barrier), instead of each consumer
// thread loading and storing its share. A block read after the loops (the
// last V block, with last_values=own; with `ring` it is read in a loop of
// its own that shares the key loops' rings) stays the consumers' (see
// tileStreamsOf).
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "tilec/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "mlir/Transforms/RegionUtils.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::streams;

namespace {

/// The values of the kernel's body the producer role recomputes.
class ProducerValues {
public:
  /// `tiles`: the persistent loop the streamed loops are in, or null.
  ProducerValues(Block &body, scf::ForOp tiles, FunctionOpInterface kernel)
      : body(body), tiles(tiles), readOnly(kernel) {}

  /// Whether `block` is one the producer's values may come from: the
  /// kernel's body, or the persistent loop's.
  bool inScope(Block *block) {
    return block == &body || (tiles && block == tiles.getBody());
  }

  /// Whether `value` follows from kernel arguments through ops of the body
  /// without memory effects (a division by a grid argument included: the
  /// consumers run it unconditionally too, with the same operands), and
  /// one-value loads of arguments the kernel never writes (a sequence's
  /// offsets: the same in the producer as in the consumers); checked before
  /// the body moves into the consumer role.
  bool computable(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == &body || (tiles && arg == tiles.getInductionVar());
    Operation *def = value.getDefiningOp();
    if (!inScope(def->getBlock()) || !(isMemoryEffectFree(def) || readOnly.loadsConstant(def)))
      return false;
    auto [known, inserted] = checked.try_emplace(def, true);
    if (!inserted)
      return known->second;
    bool ok = llvm::all_of(inputs(def), [&](Value v) { return computable(v); });
    checked[def] = ok;
    return ok;
  }

  /// `value` in the producer role: itself when defined outside the roles,
  /// else its clone, made at `b` (with what it needs) the first time.
  Value materialize(OpBuilder &b, Value value) {
    if (Value known = mapping.lookupOrNull(value))
      return known;
    if (isa<BlockArgument>(value) || value.getDefiningOp()->getBlock() == &body)
      return value;
    Operation *def = value.getDefiningOp();
    for (Value input : inputs(def))
      materialize(b, input);
    b.clone(*def, mapping);
    return mapping.lookup(value);
  }

  const IRMapping &clones() const { return mapping; }
  const ReadOnlyArguments &readOnlyArguments() const { return readOnly; }
  /// The producer's own loop over the logical programs stands for `tiles`.
  void mapTiles(scf::ForOp producerTiles) {
    mapping.map(tiles.getInductionVar(), producerTiles.getInductionVar());
  }

private:
  /// What `op` reads: its operands and, when it has regions (a loop that
  /// scans the query blocks for a key block's range, without memory
  /// effects), the values they use from above.
  static SmallVector<Value> inputs(Operation *op) {
    SmallVector<Value> values(op->getOperands());
    if (op->getNumRegions()) {
      llvm::SetVector<Value> above;
      getUsedValuesDefinedAbove(op->getRegions(), above);
      values.append(above.begin(), above.end());
    }
    return values;
  }

  Block &body;
  scf::ForOp tiles;
  llvm::DenseMap<Operation *, bool> checked;
  IRMapping mapping;
  ReadOnlyArguments readOnly;
};

/// `count` + 1.
Value nextCount(OpBuilder &b, Location loc, Value count) {
  return arith::AddIOp::create(b, loc, count, arith::ConstantIntOp::create(b, loc, 1, 32));
}

/// The rings of one loop and their barriers.
struct LoopRings {
  Value full, empty;
  TMACopies copies;
};

/// `base` plus the number of iterations of a loop from `lower` to `upper`
/// by `step` (positive): the next loop's first iteration on shared rings.
Value after(OpBuilder &b, Location loc, Value base, Value lower, Value upper, Value step) {
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  Value span = arith::MaxSIOp::create(b, loc, arith::SubIOp::create(b, loc, upper, lower), zero);
  Value trips = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, span, arith::SubIOp::create(b, loc, step, one)),
      step);
  return arith::AddIOp::create(b, loc, base, trips);
}

/// Whether `a` and `b` stream into one ring: the same descriptor into the
/// same kind of buffer.
bool sameRing(Stream &a, Stream &b) {
  return a.load.getDesc() == b.load.getDesc() && bool(a.filled) == bool(b.filled) &&
         (!a.filled || a.filled.getType() == b.filled.getType());
}

/// Where each of `narrow`'s streams is among `wide`'s when they stream
/// into the same rings in the same order (a subsequence: equal loops
/// included), else nothing.
std::optional<SmallVector<size_t>> ringsWithin(StreamedLoop &narrow, StreamedLoop &wide) {
  SmallVector<size_t> at;
  size_t w = 0;
  for (Stream &stream : narrow.streams) {
    while (w < wide.streams.size() && !sameRing(stream, wide.streams[w]))
      ++w;
    if (w == wide.streams.size())
      return std::nullopt;
    at.push_back(w++);
  }
  return at;
}

/// Whether the narrower of `a` and `b` streams some of the blocks the
/// other does, in order, so that both can share the wider one's rings: a
/// loop of the first step alone (its K block, no V) before the loops of
/// every other step (K and V), a loop of the last step's P·V alone (its V
/// block) after them.
bool sharesRings(StreamedLoop &a, StreamedLoop &b) {
  StreamedLoop &narrow = a.streams.size() <= b.streams.size() ? a : b;
  StreamedLoop &wide = &narrow == &a ? b : a;
  return ringsWithin(narrow, wide).has_value();
}

/// Consecutive loops that share one set of rings, and the one among them
/// that streams the most (whose rings they are).
struct RingRun {
  size_t begin, end, widest;
};

/// `loops` in runs: a loop joins the run before it when it shares rings
/// with that run's widest loop.
SmallVector<RingRun> ringRuns(MutableArrayRef<StreamedLoop> loops) {
  SmallVector<RingRun> runs;
  for (size_t i = 0; i < loops.size(); ++i) {
    if (!runs.empty() && sharesRings(loops[runs.back().widest], loops[i])) {
      RingRun &run = runs.back();
      run.end = i + 1;
      if (loops[i].streams.size() > loops[run.widest].streams.size())
        run.widest = i;
      continue;
    }
    runs.push_back({i, i + 1, i});
  }
  return runs;
}

/// Why the producer cannot run `loops` for `kernel` (whose body `body`
/// is), or nothing when it can.
std::optional<std::string> whyNot(FunctionOpInterface kernel, Block &body, scf::ForOp tiles,
                                  MutableArrayRef<StreamedLoop> loops, ProducerValues &producer,
                                  int32_t producerRegisters, int32_t consumerRegisters) {
  auto threads = kernel->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid");
  // The whole body moves into a role: nothing may flow out of it.
  if (body.getTerminator()->getNumOperands())
    return "the function returns values";
  if (!threads || threads.empty() || threads[0] % 128 ||
      llvm::any_of(threads.asArrayRef().drop_front(), [](int32_t t) { return t != 1; }))
    return "its nvvm.reqntid is not whole warpgroups along x";
  if (threads[0] + 128 > 1024)
    return "with the producer's 128 threads it would exceed 1024";
  if (128 * int64_t{producerRegisters} + threads[0] * int64_t{consumerRegisters} > 65536)
    return "the register budgets (128 x producer + consumers x consumer registers) exceed the "
           "65536 registers of an SM";
  // Block-wide barriers cannot run inside a role.
  if (kernel.walk([](Operation *op) {
               return isa<BarrierOp, MBarrierCreateOp, WarpSpecializeOp>(op)
                          ? WalkResult::interrupt()
                          : WalkResult::advance();
             }).wasInterrupted())
    return "it already has block barriers, mbarriers or warp roles";
  if (tiles) {
    for (Value bound : {tiles.getLowerBound(), tiles.getUpperBound(), tiles.getStep()})
      if (!producer.computable(bound))
        return "the persistent loop's bounds are not computed from kernel arguments by ops "
               "without memory effects";
    if (ringRuns(loops).size() > 1)
      return "the persistent loop's streamed loops do not all stream the same blocks (or some "
             "of them, in order)";
  }
  Block *scope = tiles ? tiles.getBody() : &body;
  for (StreamedLoop &streamed : loops) {
    scf::ForOp loop = streamed.loop;
    if (loop->getBlock() != scope)
      return "a streamed loop is nested in another op";
    if (!llvm::all_of(streamed.streams, [](Stream &s) { return tmaBox(s).has_value(); }))
      return "a streamed block has no TMA box (it fills no swizzled wgmma buffer and is not one "
             "row of whole 128-byte slots)";
    for (Value bound : {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
      if (!producer.computable(bound))
        return "a loop bound is not computed from kernel arguments by ops without memory "
               "effects (or loads of arguments the kernel does not write)";
    for (Stream &stream : streamed.streams)
      for (Value input : outsideInputs(stream, loop))
        if (!producer.computable(input))
          return "a block coordinate is not computed from kernel arguments by ops without "
                 "memory effects (or loads of arguments the kernel does not write)";
  }
  return std::nullopt;
}

/// The producer's loop for `loop`: every iteration waits for its slot to be
/// free, announces the bytes and copies.
/// Returns the next loop's base.
Value produce(OpBuilder &b, Value tid, StreamedLoop &streamed, const LoopRings &rings,
              Value base, int64_t slots, ProducerValues &producer) {
  scf::ForOp loop = streamed.loop;
  Location loc = loop.getLoc();
  Value lower = producer.materialize(b, loop.getLowerBound());
  Value upper = producer.materialize(b, loop.getUpperBound());
  Value step = producer.materialize(b, loop.getStep());
  for (Stream &stream : streamed.streams)
    for (Value input : outsideInputs(stream, loop))
      producer.materialize(b, input);
  auto fill = scf::ForOp::create(b, loc, lower, upper, step);
  OpBuilder body(fill.getBody()->getTerminator());
  Position at = positionOf(body, loc, fill.getInductionVar(), lower, step, base, slots);
  Value one = arith::ConstantIntOp::create(body, loc, 1, 32);
  MBarrierWaitOp::create(body, loc, rings.empty, at.slot,
                         arith::AddIOp::create(body, loc, at.round, one));
  Value zero = arith::ConstantIntOp::create(body, loc, 0, 32);
  Value thread0 = arith::CmpIOp::create(body, loc, arith::CmpIPredicate::eq, tid, zero);
  auto announce = scf::IfOp::create(body, loc, TypeRange{}, thread0, /*withElse=*/false);
  OpBuilder first = OpBuilder::atBlockBegin(&announce.getThenRegion().front());
  MBarrierArriveOp::create(first, loc, rings.full, at.slot,
                           first.getI32IntegerAttr(rings.copies.bytes));
  for (auto [stream, map] : llvm::zip(streamed.streams, rings.copies.maps)) {
    SmallVector<Value> offsets =
        offsetsAt(body, stream, loop, fill.getInductionVar(), producer.clones());
    auto ringType = cast<SharedMemoryType>(stream.ring.getType());
    Value dst = SlotOp::create(body, loc, ringType.getSlotType(), stream.ring, at.slot);
    TMALoadOp::create(body, loc, map, offsets, dst, rings.full, at.slot);
  }
  return after(b, loc, base, lower, upper, step);
}

/// The consumers' side of `loop`: wait for the slot, read it, free it.
/// Returns the next loop's base.
Value consume(StreamedLoop &streamed, const LoopRings &rings, Value base, int64_t slots) {
  scf::ForOp loop = streamed.loop;
  Location loc = loop.getLoc();
  OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
  Position at = positionOf(body, loc, loop.getInductionVar(), loop.getLowerBound(),
                           loop.getStep(), base, slots);
  MBarrierWaitOp::create(body, loc, rings.full, at.slot, at.round);
  readSlots(body, streamed.streams, at.slot);
  OpBuilder end(loop.getBody()->getTerminator());
  MBarrierArriveOp::create(end, loc, rings.empty, at.slot, IntegerAttr());
  OpBuilder next(loop);
  return after(next, loc, base, loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
}

/// A block a persistent kernel loads once per tile (Q; the last V block,
/// read after the loops) and its own ring and barriers: the producer loads
/// the next tile's as soon as the consumers are done with this one's, while
/// they finish the tile — or, on two slots, while they work on this one.
/// Over one tile (a kernel that is not persistent) the one slot is never
/// refilled: no "empty" barrier.
struct TileStream {
  Stream stream;
  LoopRings rings;
  int64_t slots = 1;
};

/// The blocks of the persistent loop `tiles` that the producer can load
/// (TMA boxes, coordinates it can compute), with their rings made at `top`:
/// `tileSlots` slots for those loaded before the tile's streamed loops (Q),
/// one for the rest.
SmallVector<TileStream> tileStreamsOf(OpBuilder &top, scf::ForOp tiles, FunctionOpInterface kernel,
                                      ProducerValues &producer, TensorMaps &maps, int32_t consumers,
                                      bool once, int64_t tileSlots) {
  SmallVector<TileStream> tileStreams;
  for (Stream &stream :
       collectStreams(tiles, kernel, producer.readOnlyArguments(), /*tileLoop=*/true)) {
    if (!tmaBox(stream) || !llvm::all_of(outsideInputs(stream, tiles),
                                         [&](Value v) { return producer.computable(v); }))
      continue;
    // Over one tile, a block read after the loops (the last V block) stays
    // the consumers': from the producer, its ring's use after the loops cost
    // the d = 128 forward's loop 15 % more instructions (ptxas moved the
    // wgmma descriptors out of uniform registers) and 3 % at N = 16k
    // (bench/RESULTS.md, session 23, call E).
    bool afterLoops = llvm::any_of(*tiles.getBody(), [&](Operation &op) {
      return isa<scf::ForOp>(op) && op.isBeforeInBlock(stream.load);
    });
    if (once && afterLoops)
      continue;
    TileStream ts{stream, {}, once || afterLoops ? 1 : tileSlots};
    Location loc = stream.load.getLoc();
    makeRing(top, loc, ts.stream, ts.slots);
    ts.rings.copies = tmaCopies(MutableArrayRef<Stream>(ts.stream), maps);
    auto type = MBarrierType::get(top.getContext(), ts.slots);
    ts.rings.full = MBarrierCreateOp::create(top, loc, type, top.getI32IntegerAttr(1), IntegerAttr());
    if (!once)
      ts.rings.empty =
          MBarrierCreateOp::create(top, loc, type, top.getI32IntegerAttr(consumers), IntegerAttr());
    tileStreams.push_back(ts);
  }
  return tileStreams;
}

/// The producer's copy of tile stream `ts` for its tile `producerTiles`:
/// wait until the consumers freed the slot, announce, copy. `counted`: the
/// loop's count of tiles so far, where its steps will not say it (claimed
/// tiles), else null.
void produceTile(OpBuilder &b, Value tid, TileStream &ts, scf::ForOp tiles,
                 scf::ForOp producerTiles, Value counted, ProducerValues &producer) {
  Location loc = ts.stream.load.getLoc();
  for (Value input : outsideInputs(ts.stream, tiles))
    producer.materialize(b, input);
  Position at =
      counted ? positionAt(b, loc, counted, ts.slots)
              : positionOf(b, loc, producerTiles.getInductionVar(), producerTiles.getLowerBound(),
                           producerTiles.getStep(), Value(), ts.slots);
  Value one = arith::ConstantIntOp::create(b, loc, 1, 32);
  if (ts.rings.empty)
    MBarrierWaitOp::create(b, loc, ts.rings.empty, at.slot,
                           arith::AddIOp::create(b, loc, at.round, one));
  Value zero = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value thread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, zero);
  auto announce = scf::IfOp::create(b, loc, TypeRange{}, thread0, /*withElse=*/false);
  OpBuilder first = OpBuilder::atBlockBegin(&announce.getThenRegion().front());
  MBarrierArriveOp::create(first, loc, ts.rings.full, at.slot,
                           first.getI32IntegerAttr(ts.rings.copies.bytes));
  SmallVector<Value> offsets =
      offsetsAt(b, ts.stream, tiles, producerTiles.getInductionVar(), producer.clones());
  auto ringType = cast<SharedMemoryType>(ts.stream.ring.getType());
  Value dst = SlotOp::create(b, loc, ringType.getSlotType(), ts.stream.ring, at.slot);
  TMALoadOp::create(b, loc, ts.rings.copies.maps.front(), offsets, dst, ts.rings.full, at.slot);
}

/// The ops of `block` between which `view` is in use: the first and the
/// last that hold a use, a wgmma's reads lasting until its wait (through
/// loops that carry its token).
std::pair<Operation *, Operation *> useSpan(Block *block, Value view) {
  Operation *first = nullptr, *last = nullptr;
  SmallVector<Value> work{view};
  while (!work.empty()) {
    Value value = work.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (isa<WarpgroupDotOp>(user))
        llvm::append_range(work, user->getResults());
      else if (isa<scf::YieldOp>(user) && isa<scf::ForOp>(user->getParentOp()) &&
               isa<DotTokenType>(use.get().getType()))
        work.push_back(user->getParentOp()->getResult(use.getOperandNumber()));
      Operation *at = block->findAncestorOpInBlock(*user);
      if (!at)
        continue;
      if (!first || at->isBeforeInBlock(first))
        first = at;
      if (!last || last->isBeforeInBlock(at))
        last = at;
    }
  }
  return {first, last};
}

/// The consumers' side of tile stream `ts` in their loop `tiles`: the
/// block's readers read the tile's slot, waited for before the first of
/// them and freed after the last. `counted` as for produceTile.
void consumeTile(TileStream &ts, scf::ForOp tiles, Value counted) {
  Location loc = ts.stream.load.getLoc();
  Block *tile = tiles.getBody();
  OpBuilder top = OpBuilder::atBlockBegin(tile);
  Position at = counted ? positionAt(top, loc, counted, ts.slots)
                        : positionOf(top, loc, tiles.getInductionVar(), tiles.getLowerBound(),
                                     tiles.getStep(), Value(), ts.slots);
  Value view = readSlots(top, MutableArrayRef<Stream>(ts.stream), at.slot).front();
  auto [first, last] = useSpan(tile, view);
  if (!first)
    return;
  OpBuilder before(first);
  MBarrierWaitOp::create(before, loc, ts.rings.full, at.slot, at.round);
  if (!ts.rings.empty)
    return;
  OpBuilder after(last->getBlock(), std::next(last->getIterator()));
  MBarrierArriveOp::create(after, loc, ts.rings.empty, at.slot, IntegerAttr());
}

/// The loop over a persistent kernel's logical programs that holds every
/// streamed loop (all in its body, which is in the kernel's), or null.
scf::ForOp persistentLoop(Block &body, MutableArrayRef<StreamedLoop> loops) {
  auto tiles = dyn_cast_or_null<scf::ForOp>(loops.front().loop->getParentOp());
  if (!tiles || tiles->getBlock() != &body)
    return {};
  for (StreamedLoop &streamed : loops)
    if (streamed.loop->getParentOp() != tiles)
      return {};
  return tiles;
}

/// A one-iteration loop around the ops of a kernel's `body` (what does not
/// depend on it hoisted above it: descriptors, coordinates), so that the
/// blocks a program loads once before its loops (Q) are the producer's
/// tile streams, as a persistent kernel's are per tile.
scf::ForOp wrapInOneIteration(Block &body, Location loc) {
  SmallVector<Operation *> ops;
  for (Operation &op : body.without_terminator())
    ops.push_back(&op);
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  auto c = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
  auto once = scf::ForOp::create(b, loc, c(0), c(1), c(1));
  for (Operation *op : ops)
    op->moveBefore(once.getBody()->getTerminator());
  moveLoopInvariantCode(cast<LoopLikeOpInterface>(once.getOperation()));
  return once;
}

/// The producer's and the consumers' loops over the tiles (the persistent
/// loop, or the one-iteration loop of wrapInOneIteration).
struct TileLoops {
  scf::ForOp producer, consumers;
};

/// Warp-specializes `kernel` (whyNot found nothing against it).
TileLoops specialize(FunctionOpInterface kernel, Block &body, scf::ForOp tiles, bool once,
                     MutableArrayRef<StreamedLoop> loops, ProducerValues &producer, int64_t slots,
                     int64_t tileSlots, TensorMaps &maps, int32_t producerRegisters,
                     int32_t consumerRegisters) {
  TileLoops tileLoops;
  MLIRContext *context = kernel->getContext();
  Location loc = kernel.getLoc();
  auto threads = kernel->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid");
  int32_t consumers = threads[0];
  // Tiles that will be claimed (tilegpu-claim-tiles) come in no order the
  // loop's steps say: both loops count them, from 0, in their last
  // iteration argument.
  const bool claimed = !once && kernel->hasAttr(tilec::kTileCounterAttrName);

  // Rings and barriers first, before the roles (both use them): one set
  // for each run of loops that share rings (the widest loop's); each loop
  // copies and announces its own blocks.
  OpBuilder top = OpBuilder::atBlockBegin(&body);
  SmallVector<LoopRings> rings(loops.size());
  SmallVector<bool> continues(loops.size()); // the loop goes on with the previous one's rings
  for (const RingRun &run : ringRuns(loops)) {
    for (Stream &stream : loops[run.widest].streams)
      makeRing(top, loc, stream, slots);
    auto type = MBarrierType::get(context, slots);
    Value full = MBarrierCreateOp::create(top, loc, type, top.getI32IntegerAttr(1), IntegerAttr());
    Value empty =
        MBarrierCreateOp::create(top, loc, type, top.getI32IntegerAttr(consumers), IntegerAttr());
    for (size_t i = run.begin; i < run.end; ++i) {
      SmallVector<size_t> owners = *ringsWithin(loops[i], loops[run.widest]);
      for (auto [stream, owner] : llvm::zip(loops[i].streams, owners))
        stream.ring = loops[run.widest].streams[owner].ring;
      rings[i] = {full, empty, tmaCopies(loops[i].streams, maps)};
      continues[i] = i != run.begin;
    }
  }
  SmallVector<TileStream> tileStreams;
  if (tiles)
    tileStreams = tileStreamsOf(top, tiles, kernel, producer, maps, consumers, once, tileSlots);
  auto roles = WarpSpecializeOp::create(top, loc, ArrayRef<int32_t>{4, consumers / 32},
                                        ArrayRef<int32_t>{producerRegisters, consumerRegisters},
                                        /*rolesCount=*/2);
  Block *producerBlock = new Block();
  Block *consumerBlock = new Block();
  roles.getRoles()[0].push_back(producerBlock);
  roles.getRoles()[1].push_back(consumerBlock);
  consumerBlock->getOperations().splice(consumerBlock->end(), body.getOperations(),
                                        std::next(roles->getIterator()),
                                        body.getTerminator()->getIterator());

  // The producer: warp 0 of the first warpgroup (whose thread indices are
  // the block's).
  OpBuilder b = OpBuilder::atBlockBegin(producerBlock);
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value warp0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                      arith::ConstantIntOp::create(b, loc, 32, 32));
  auto inWarp0 = scf::IfOp::create(b, loc, TypeRange{}, warp0, /*withElse=*/false);
  OpBuilder warp = OpBuilder::atBlockBegin(&inWarp0.getThenRegion().front());
  Value start = arith::ConstantIntOp::create(warp, loc, 0, 32);
  if (tiles) {
    // The producer's own loop over the logical programs, carrying the
    // iteration count on (every streamed loop shares one set of rings).
    SmallVector<Value> inits{start};
    if (claimed)
      inits.push_back(start);
    auto producerTiles =
        scf::ForOp::create(warp, loc, producer.materialize(warp, tiles.getLowerBound()),
                           producer.materialize(warp, tiles.getUpperBound()),
                           producer.materialize(warp, tiles.getStep()), inits,
                           [](OpBuilder &b, Location loc, Value, ValueRange carried) {
                             scf::YieldOp::create(b, loc, carried);
                           });
    producer.mapTiles(producerTiles);
    tileLoops.producer = producerTiles;
    OpBuilder inTile(producerTiles.getBody()->getTerminator());
    Value base = producerTiles.getRegionIterArg(0);
    Value counted = claimed ? producerTiles.getRegionIterArg(1) : Value();
    // The copies in the order the consumers' tile needs them: a tile
    // stream's where its load was, each streamed loop's in its place.
    for (Operation &op : *tiles.getBody()) {
      for (TileStream &ts : tileStreams)
        if (&op == ts.stream.load.getOperation())
          produceTile(inTile, tid, ts, tiles, producerTiles, counted, producer);
      for (auto [streamed, ring] : llvm::zip(loops, rings))
        if (&op == streamed.loop.getOperation())
          base = produce(inTile, tid, streamed, ring, base, slots, producer);
    }
    SmallVector<Value> next{base};
    if (claimed)
      next.push_back(nextCount(inTile, loc, counted));
    producerTiles.getBody()->getTerminator()->setOperands(next);
  } else {
    Value base = start;
    for (auto [streamed, ring, goesOn] : llvm::zip(loops, rings, continues))
      base = produce(warp, tid, streamed, ring, goesOn ? base : start, slots, producer);
  }
  // The consumers' bases are computed before each loop, from the previous
  // loops' bounds (defined before those loops).
  OpBuilder entry = OpBuilder::atBlockBegin(consumerBlock);
  Value consumerStart = arith::ConstantIntOp::create(entry, loc, 0, 32);
  if (tiles) {
    IRRewriter rewriter(context);
    SmallVector<Value> inits{consumerStart};
    if (claimed)
      inits.push_back(consumerStart);
    auto carried = cast<scf::ForOp>(*tiles.replaceWithAdditionalYields(
        rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
        [](OpBuilder &, Location, ArrayRef<BlockArgument> added) {
          return SmallVector<Value>(added.begin(), added.end());
        }));
    unsigned first = carried.getNumRegionIterArgs() - inits.size();
    Value base = carried.getRegionIterArgs()[first];
    Value counted = claimed ? carried.getRegionIterArgs()[first + 1] : Value();
    for (auto [streamed, ring] : llvm::zip(loops, rings))
      base = consume(streamed, ring, base, slots);
    Operation *yield = carried.getBody()->getTerminator();
    yield->setOperand(first, base);
    if (claimed) {
      OpBuilder end(yield);
      yield->setOperand(first + 1, nextCount(end, loc, counted));
    }
    for (TileStream &ts : tileStreams)
      consumeTile(ts, carried, counted);
    tileLoops.consumers = carried;
  } else {
    Value base = consumerStart;
    for (auto [streamed, ring, goesOn] : llvm::zip(loops, rings, continues))
      base = consume(streamed, ring, goesOn ? base : consumerStart, slots);
  }

  SmallVector<int32_t> grown(threads.asArrayRef());
  grown[0] += kWarpgroupThreads;
  kernel->setAttr("nvvm.reqntid", DenseI32ArrayAttr::get(context, grown));
  return tileLoops;
}

} // namespace

bool streams::warpSpecializeStreams(FunctionOpInterface kernel, MutableArrayRef<StreamedLoop> loops,
                                    int64_t slots, int64_t tileSlots, TensorMaps &maps,
                                    int32_t producerRegisters, int32_t consumerRegisters) {
  Block &body = kernel.getFunctionBody().front();
  if (loops.empty())
    return false; // nothing to produce (vector add, row softmax)
  scf::ForOp tiles = persistentLoop(body, loops);
  IRRewriter rewriter(kernel->getContext());
  if (!tiles && llvm::all_of(loops, [&](StreamedLoop &l) { return l.loop->getBlock() == &body; })) {
    // A program's once-loaded blocks (those read before its loops: Q) go
    // by the producer too, through its tile streams over one tile.
    scf::ForOp once = wrapInOneIteration(body, kernel.getLoc());
    ProducerValues producer(body, once, kernel);
    if (!whyNot(kernel, body, once, loops, producer, producerRegisters, consumerRegisters)) {
      TileLoops tileLoops = specialize(kernel, body, once, /*once=*/true, loops, producer, slots,
                                       /*tileSlots=*/1, maps, producerRegisters, consumerRegisters);
      for (scf::ForOp loop : {tileLoops.producer, tileLoops.consumers})
        if (failed(loop.promoteIfSingleIteration(rewriter)))
          llvm_unreachable("a loop from 0 to 1 by 1 runs once");
      return true;
    }
    if (failed(once.promoteIfSingleIteration(rewriter)))
      llvm_unreachable("a loop from 0 to 1 by 1 runs once");
  }
  ProducerValues producer(body, tiles, kernel);
  if (std::optional<std::string> why =
          whyNot(kernel, body, tiles, loops, producer, producerRegisters, consumerRegisters)) {
    kernel.emitWarning("not warp-specialized: ") << *why;
    return false;
  }
  specialize(kernel, body, tiles, /*once=*/false, loops, producer, slots, tileSlots, maps,
             producerRegisters, consumerRegisters);
  return true;
}
