//===- PipelineStreams.cpp - N-slot rings for a loop's block loads --------===//
//
// A block load in an `scf.for` body whose coordinates follow from the
// induction variable becomes a stream: a ring of `stages` shared-memory
// slots filled by cp.async `stages - 1` iterations ahead. Before the loop
// the first `stages - 1` iterations' copies are issued, one commit group
// each; iteration i waits until its group has landed (at most `stages - 2`
// groups pending), issues the copies of iteration i + stages - 1 into the
// slot iteration i - 1 read, commits, and reads slot i mod stages. Copies
// past the loop's end are skipped (their commit groups stay, empty, so the
// counts hold); after the loop every group is waited for.
//
// The block's readers keep what they were: a tile (`local_load` of the
// slot, in the load's layout) or, when the load only filled a shared buffer
// of the loop (`local_store` into an `alloc`, a wgmma's B), that buffer is
// the slot. Barriers and fences come from tilegpu-insert-barriers.
//
// cp.async moves 16-byte chunks of whole rows: the tensor must be
// contiguous along its last dimension with 16-byte aligned rows. The pass
// streams only descriptors on a kernel argument, and records those
// arguments in `tilec.aligned_args`, which the launch metadata marks and
// the runtime checks.
//
// With `tma`, a loop whose streams all fill swizzled wgmma buffers is filled
// by TMA: a tensor map per (descriptor base, box) as a trailing kernel
// argument (listed in `tilec.tensor_maps` for the runtime), a "full"
// mbarrier per slot; the copies announce their bytes on the slot's barrier
// and each iteration waits for the slot's phase instead of a commit group.
// With `warp-specialize` too, a producer warpgroup issues every copy
// (WarpSpecializeStreams.cpp).
//
//===----------------------------------------------------------------------===//

#include "Streams.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

namespace tilec::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINESTREAMS
#include "tilec/Dialect/TileGPU/Passes.h.inc"
} // namespace tilec::tilegpu

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::streams;
namespace tile = tilec::tile;

//===----------------------------------------------------------------------===//
// Streams
//===----------------------------------------------------------------------===//

streams::ReadOnlyArguments::ReadOnlyArguments(FunctionOpInterface kernel) {
  Block *body = &kernel.getFunctionBody().front();
  // The argument of the body `pointer` advances from, if it is one.
  auto root = [&](Value pointer) -> BlockArgument {
    while (pointer) {
      if (auto arg = dyn_cast<BlockArgument>(pointer))
        return arg.getOwner() == body ? arg : BlockArgument();
      Operation *def = pointer.getDefiningOp();
      if (auto add = dyn_cast<tile::AddPtrOp>(def))
        pointer = add.getPtr();
      else if (isa<tile::SplatOp, tile::BroadcastOp, tile::ExpandDimsOp, tile::ReshapeOp,
                   ConvertLayoutOp>(def))
        pointer = def->getOperand(0);
      else
        return {};
    }
    return {};
  };
  // The arguments written through (all, when a write's target is not traced
  // to one).
  kernel->walk([&](Operation *op) {
    if (!isa<tile::StoreOp, tile::StoreBlockOp, tile::AtomicAddBlockOp, TMAStoreOp>(op))
      return;
    Value target;
    if (auto store = dyn_cast<tile::StoreOp>(op))
      target = store.getPtr();
    else if (isa<tile::StoreBlockOp, tile::AtomicAddBlockOp>(op))
      if (auto make = op->getOperand(0).getDefiningOp<tile::MakeDescOp>())
        target = make.getBase();
    if (BlockArgument arg = target ? root(target) : BlockArgument())
      written.insert(arg);
    else
      writesUntraced = true;
  });
  // Loads name their root through the same chains.
  kernel->walk([&](tile::LoadScalarOp load) {
    if (BlockArgument arg = root(load.getPtr()))
      roots[load] = arg;
  });
}

bool streams::ReadOnlyArguments::loadsConstant(Operation *op) const {
  auto load = dyn_cast<tile::LoadScalarOp>(op);
  auto found = load ? roots.find(op) : roots.end();
  return found != roots.end() && !writesUntraced && !written.contains(found->second);
}

/// The ops of `loop`'s body that `values` are computed from, in program
/// order, if they are pure or one-value loads of read-only arguments and
/// depend on nothing else of the body than the induction variable.
static std::optional<SmallVector<Operation *>> indexSlice(scf::ForOp loop, ValueRange values,
                                                          const streams::ReadOnlyArguments &readOnly,
                                                          bool effectFree) {
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work(values.begin(), values.end());
  Block *body = loop.getBody();
  while (!work.empty()) {
    Value v = work.pop_back_val();
    if (v == loop.getInductionVar())
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == body)
        return std::nullopt; // a loop-carried value
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body) {
      if (body->getParentOp()->isAncestor(def))
        return std::nullopt; // nested in another op of the body
      continue;              // defined before the loop
    }
    bool free = effectFree ? isMemoryEffectFree(def) : isPure(def);
    if (!(free || readOnly.loadsConstant(def)) || def->getNumRegions())
      return std::nullopt;
    if (ops.insert(def))
      llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> ordered(ops.begin(), ops.end());
  llvm::sort(ordered, [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  return ordered;
}

/// The block as its readers see it: the load, or the reshape that only
/// drops its unit dimensions (then the load's only user).
static Value blockValue(tile::LoadBlockOp load, tile::ReshapeOp reshape) {
  return reshape ? reshape.getResult() : load.getResult();
}

/// The shared buffer the block is only stored into, when every other use
/// of that buffer is in the loop's body too.
static AllocOp filledBuffer(scf::ForOp loop, Value block, bool nestedReaders) {
  if (!block.hasOneUse())
    return {};
  auto store = dyn_cast<LocalStoreOp>(*block.getUsers().begin());
  if (!store || store.getValue() != block || store->getBlock() != loop.getBody())
    return {};
  auto alloc = store.getDst().getDefiningOp<AllocOp>();
  if (!alloc)
    return {};
  for (Operation *user : alloc->getUsers())
    if (nestedReaders ? !loop->isProperAncestor(user) : user->getBlock() != loop.getBody())
      return {};
  return alloc;
}

/// The reshape dropping the unit dimensions of `load`'s block, its only
/// user, if there is one.
static tile::ReshapeOp unitDimReshape(tile::LoadBlockOp load) {
  if (!load.getResult().hasOneUse())
    return {};
  auto reshape = dyn_cast<tile::ReshapeOp>(*load.getResult().getUsers().begin());
  if (!reshape || SmallVector<int64_t>(reshape.getType().getShape()) !=
                      withoutUnitDims(load.getType().getShape()))
    return {};
  return reshape;
}

/// Why `load` cannot be streamed, or nothing.
static std::optional<std::string> whyNotStreamed(scf::ForOp loop, tile::LoadBlockOp load,
                                                 FunctionOpInterface kernel) {
  tile::TensorDescType desc = load.getDesc().getType();
  auto make = load.getDesc().getDefiningOp<tile::MakeDescOp>();
  if (!make || loop->isAncestor(make))
    return "its descriptor is not made before the loop";
  auto base = dyn_cast<BlockArgument>(make.getBase());
  if (!base || base.getOwner() != &kernel.getFunctionBody().front())
    return "its descriptor's base is not a kernel argument";
  int64_t rowBytes = desc.getBlockShape().back() * desc.getElementType().getIntOrFloatBitWidth() / 8;
  if (rowBytes % 16)
    return "its rows are not a multiple of 16 bytes";
  if (llvm::is_contained(desc.getBlockShape(), 1) && !unitDimReshape(load))
    return "its block has unit dimensions that no reshape of it drops";
  if (load.getPadding() != tile::PaddingOption::zero)
    return "it pads with NaN (cp.async and TMA fill with zeros)";
  return std::nullopt;
}

SmallVector<Stream> streams::collectStreams(scf::ForOp loop, FunctionOpInterface kernel,
                                           const ReadOnlyArguments &readOnly, bool tileLoop) {
  SmallVector<Stream> streams;
  if (!loop.getInductionVar().getType().isInteger(32))
    return streams;
  for (auto load : loop.getBody()->getOps<tile::LoadBlockOp>()) {
    if (whyNotStreamed(loop, load, kernel))
      continue;
    std::optional<SmallVector<Operation *>> slice =
        indexSlice(loop, load.getOffsets(), readOnly, tileLoop);
    if (!slice)
      continue;
    tile::ReshapeOp reshape = unitDimReshape(load);
    streams.push_back({load, reshape, *slice,
                       filledBuffer(loop, blockValue(load, reshape), tileLoop), Value()});
  }
  return streams;
}

unsigned streams::baseArgument(Stream &stream) {
  auto make = stream.load.getDesc().getDefiningOp<tile::MakeDescOp>();
  return cast<BlockArgument>(make.getBase()).getArgNumber();
}

bool streams::describesItsArgument(tile::MakeDescOp make) {
  auto base = dyn_cast<BlockArgument>(make.getBase());
  if (!base)
    return false;
  Block *entry = base.getOwner();
  unsigned first = base.getArgNumber() + 1, rank = make.getShape().size();
  auto isArgument = [&](Value v, unsigned position) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == entry && arg.getArgNumber() == position;
  };
  for (unsigned d = 0; d < rank; ++d)
    if (!isArgument(make.getShape()[d], first + d) ||
        !isArgument(make.getStrides()[d], first + rank + d))
      return false;
  return true;
}

int64_t streams::blockBytes(tile::TensorDescType desc) {
  int64_t elements = 1;
  for (int64_t d : desc.getBlockShape())
    elements *= d;
  return elements * desc.getElementType().getIntOrFloatBitWidth() / 8;
}

Attribute streams::ringEncoding(Stream &stream) {
  if (stream.filled)
    return stream.filled.getType().getEncoding();
  // Rows padded against bank conflicts; one row needs no padding (and
  // then is what a TMA box without swizzle writes).
  MLIRContext *context = stream.load.getContext();
  bool oneRow = withoutUnitDims(stream.load.getDesc().getType().getBlockShape()).size() == 1;
  return PaddedAttr::get(context, oneRow ? 0 : 16);
}

void streams::makeRing(OpBuilder &b, Location loc, Stream &stream, int64_t slots) {
  MLIRContext *context = b.getContext();
  tile::TensorDescType desc = stream.load.getDesc().getType();
  SmallVector<int64_t> shape{slots};
  llvm::append_range(shape, withoutUnitDims(desc.getBlockShape()));
  auto type = SharedMemoryType::get(context, shape, desc.getElementType(), ringEncoding(stream));
  stream.ring = AllocOp::create(b, loc, type, IntegerAttr());
}

SmallVector<Value> streams::offsetsAt(OpBuilder &b, Stream &stream, scf::ForOp loop, Value iv,
                                      const IRMapping &outer) {
  IRMapping mapping = outer;
  mapping.map(loop.getInductionVar(), iv);
  for (Operation *op : stream.slice)
    b.clone(*op, mapping);
  SmallVector<Value> offsets;
  for (Value offset : stream.load.getOffsets())
    offsets.push_back(mapping.lookupOrDefault(offset));
  return offsets;
}

SmallVector<Value> streams::outsideInputs(Stream &stream, scf::ForOp loop) {
  llvm::SetVector<Value> inputs;
  auto outside = [&](Value v) {
    return v != loop.getInductionVar() && !loop->isAncestor(v.getParentBlock()->getParentOp());
  };
  for (Operation *op : stream.slice)
    for (Value operand : op->getOperands())
      if (outside(operand))
        inputs.insert(operand);
  for (Value offset : stream.load.getOffsets())
    if (outside(offset))
      inputs.insert(offset);
  return inputs.takeVector();
}

/// `readSlots` for one stream.
static void readSlot(Stream &stream, Value slot) {
  Value block = blockValue(stream.load, stream.reshape);
  if (stream.filled) {
    // The slot is the buffer; the store that filled it goes.
    (*block.getUsers().begin())->erase();
    stream.filled.getResult().replaceAllUsesWith(slot);
    stream.filled.erase();
  } else {
    OpBuilder at(block.getDefiningOp());
    Value tile = LocalLoadOp::create(at, stream.load.getLoc(),
                                     cast<RankedTensorType>(block.getType()), slot);
    block.replaceAllUsesWith(tile);
  }
  if (stream.reshape)
    stream.reshape.erase();
  stream.load.erase();
}

SmallVector<Value> streams::readSlots(OpBuilder &b, MutableArrayRef<Stream> streams, Value slot) {
  // All slots first: `b` may insert before one of the loads replaced.
  SmallVector<Value> slots;
  for (Stream &stream : streams) {
    auto ringType = cast<SharedMemoryType>(stream.ring.getType());
    slots.push_back(SlotOp::create(b, stream.load.getLoc(), ringType.getSlotType(), stream.ring, slot));
  }
  for (auto [stream, view] : llvm::zip(streams, slots))
    readSlot(stream, view);
  return slots;
}

Position streams::positionOf(OpBuilder &b, Location loc, Value iv, Value lower, Value step,
                             Value base, int64_t slots) {
  Value iteration =
      arith::DivUIOp::create(b, loc, arith::SubIOp::create(b, loc, iv, lower), step);
  if (base)
    iteration = arith::AddIOp::create(b, loc, base, iteration);
  return positionAt(b, loc, iteration, slots);
}

Position streams::positionAt(OpBuilder &b, Location loc, Value iteration, int64_t slots) {
  Value count = arith::ConstantIntOp::create(b, loc, slots, 32);
  return {iteration, arith::RemUIOp::create(b, loc, iteration, count),
          arith::DivUIOp::create(b, loc, iteration, count)};
}

TMACopies streams::tmaCopies(MutableArrayRef<Stream> streams, TensorMaps &maps) {
  TMACopies copies;
  for (Stream &stream : streams) {
    copies.maps.push_back(maps.get(stream));
    tile::TensorDescType desc = stream.load.getDesc().getType();
    copies.bytes += blockBytes(desc);
  }
  return copies;
}

std::optional<SmallVector<int64_t>> streams::tmaBox(Stream &stream) {
  auto kernel = stream.load->getParentOfType<FunctionOpInterface>();
  if (!kernel->hasAttr(kKernelAttrName) ||
      !describesItsArgument(stream.load.getDesc().getDefiningOp<tile::MakeDescOp>()))
    return std::nullopt;
  tile::TensorDescType desc = stream.load.getDesc().getType();
  int64_t elementBytes = desc.getElementType().getIntOrFloatBitWidth() / 8;
  SmallVector<int64_t> box(desc.getBlockShape());
  if (!elementBytes || box.size() > 5)
    return std::nullopt;
  Attribute encoding = ringEncoding(stream);
  if (auto swizzled = dyn_cast<SwizzledAttr>(encoding)) {
    if (box.back() * elementBytes % swizzled.getBytes())
      return std::nullopt;
    box.back() = swizzled.getBytes() / elementBytes;
  } else if (auto padded = dyn_cast<PaddedAttr>(encoding); padded && padded.getBytes() == 0) {
    // One unswizzled box per slot: its rows 16-byte multiples, each slot
    // starting 128-byte aligned (where TMA writes; the ring is).
    if (box.back() * elementBytes % 16 || blockBytes(desc) % 128)
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (llvm::any_of(box, [](int64_t d) { return d > 256; }) ||
      llvm::any_of(stream.load.getOffsets(), [](Value v) { return !v.getType().isInteger(32); }))
    return std::nullopt;
  return box;
}

Value TensorMaps::get(Stream &stream) {
  auto make = stream.load.getDesc().getDefiningOp<tile::MakeDescOp>();
  return get(make, *tmaBox(stream), ringEncoding(stream), stream.load.getLoc());
}

Value TensorMaps::get(tile::MakeDescOp make, ArrayRef<int64_t> box, Attribute encoding,
                      Location loc) {
  MLIRContext *context = kernel->getContext();
  auto swizzle = dyn_cast<SwizzledAttr>(encoding);
  auto type = TensorMapType::get(context, box, make.getType().getElementType(), encoding);
  unsigned tensor = cast<BlockArgument>(make.getBase()).getArgNumber();
  auto key = std::make_pair(tensor, Type(type));
  if (Value known = maps.lookup(key))
    return known;
  unsigned position = kernel.getNumArguments();
  if (failed(kernel.insertArguments({position}, {type}, {DictionaryAttr::get(context)}, {loc})))
    return {};
  Builder b(context);
  SmallVector<Attribute> list;
  if (auto previous = kernel->getAttrOfType<ArrayAttr>("tilec.tensor_maps"))
    llvm::append_range(list, previous.getValue());
  list.push_back(b.getDictionaryAttr(
      {b.getNamedAttr("tensor", b.getI64IntegerAttr(tensor)),
       b.getNamedAttr("box", b.getDenseI64ArrayAttr(box)),
       b.getNamedAttr("swizzle", b.getI64IntegerAttr(swizzle ? swizzle.getBytes() : 0))}));
  kernel->setAttr("tilec.tensor_maps", b.getArrayAttr(list));
  Value map = kernel.getArgument(position);
  maps[key] = map;
  return map;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

namespace {

/// Reads `name` from the module's tilec.target when the option was not given.
template <typename Attr, typename T>
static void fromTarget(ModuleOp module, llvm::StringRef name, bool given, T &value) {
  if (given)
    return;
  if (auto target = module->getAttrOfType<DictionaryAttr>("tilec.target"))
    if (auto recorded = target.getAs<Attr>(name)) {
      if constexpr (std::is_same_v<Attr, BoolAttr>)
        value = recorded.getValue();
      else
        value = recorded.getInt();
    }
}

struct TileGPUPipelineStreams
    : public tilec::tilegpu::impl::TileGPUPipelineStreamsBase<TileGPUPipelineStreams> {
  using TileGPUPipelineStreamsBase::TileGPUPipelineStreamsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    int64_t slots = stages;
    bool useTMA = tma, specialize = warpSpecialize;
    fromTarget<IntegerAttr>(module, "pipeline_stages", slots >= 0, slots);
    fromTarget<BoolAttr>(module, "tma", tma.hasValue(), useTMA);
    fromTarget<BoolAttr>(module, "warp_specialize", warpSpecialize.hasValue(), specialize);
    int64_t perTile = tileSlots;
    fromTarget<IntegerAttr>(module, "tile_slots", perTile >= 0, perTile);
    if (perTile < 0)
      perTile = 1;
    if (perTile < 1 || perTile > 2) {
      module.emitError("tilegpu-pipeline-streams: tile-slots must be 1 or 2, got ") << perTile;
      return signalPassFailure();
    }
    if (slots > 8) {
      module.emitError("tilegpu-pipeline-streams: stages must be at most 8, got ") << slots;
      return signalPassFailure();
    }
    for (auto [name, registers] : {std::pair{"producer-registers", int32_t(producerRegisters)},
                                   std::pair{"consumer-registers", int32_t(consumerRegisters)}})
      if (registers < 24 || registers > 256 || registers % 8) {
        module.emitError("tilegpu-pipeline-streams: ")
            << name << " must be a multiple of 8 in [24, 256], got " << registers;
        return signalPassFailure();
      }
    if (slots < 2)
      return;
    for (Operation &op : module.getBody()->getOperations()) {
      auto kernel = dyn_cast<FunctionOpInterface>(op);
      if (!kernel || kernel.isExternal())
        continue;
      SmallVector<StreamedLoop> loops;
      ReadOnlyArguments readOnly(kernel); // once per kernel, for all its loops
      kernel.walk([&](scf::ForOp loop) {
        // Warp-specialized, a loop under a branch stays the consumers' own
        // (plain block loads): the producer does not take the branch (the
        // fused backward's last program converting dq_acc).
        if (useTMA && specialize && loop->getParentOfType<scf::IfOp>())
          return;
        SmallVector<Stream> streams = collectStreams(loop, kernel, readOnly);
        if (!streams.empty())
          loops.push_back({loop, std::move(streams)});
      });
      // A loop around streamed loops (a persistent kernel's loop over its
      // tiles) is not streamed itself here: warp specialization streams its
      // blocks on its own rings (collectStreams with tileLoop).
      llvm::SmallPtrSet<Operation *, 4> enclosing;
      for (StreamedLoop &outer : loops)
        for (StreamedLoop &inner : loops)
          if (outer.loop->isProperAncestor(inner.loop))
            enclosing.insert(outer.loop);
      llvm::erase_if(loops, [&](StreamedLoop &l) { return enclosing.contains(l.loop); });
      llvm::SmallSetVector<int64_t, 4> alignedArgs;
      for (StreamedLoop &loop : loops)
        for (Stream &stream : loop.streams)
          alignedArgs.insert(baseArgument(stream));
      TensorMaps maps(kernel);
      if (!(useTMA && specialize &&
            warpSpecializeStreams(kernel, loops, slots, perTile, maps, producerRegisters,
                                  consumerRegisters)))
        for (StreamedLoop &loop : loops)
          pipeline(loop.loop, loop.streams, slots, useTMA ? &maps : nullptr);
      if (alignedArgs.empty())
        continue;
      if (auto previous = kernel->getAttrOfType<DenseI64ArrayAttr>("tilec.aligned_args"))
        alignedArgs.insert(previous.asArrayRef().begin(), previous.asArrayRef().end());
      SmallVector<int64_t> sorted(alignedArgs.begin(), alignedArgs.end());
      llvm::sort(sorted);
      kernel->setAttr("tilec.aligned_args", DenseI64ArrayAttr::get(&getContext(), sorted));
    }
  }

  /// Rings for `streams` filled by the threads that compute: cp.async
  /// groups, or TMA (with `maps`) when every stream takes it.
  void pipeline(scf::ForOp loop, MutableArrayRef<Stream> streams, int64_t slots,
                TensorMaps *maps) {
    // TMA for a loop in the kernel's body (its barriers are made once, by
    // the whole block, and the copies issued from the block's warp 0).
    bool useTMA = maps && loop->getBlock() == &loop->getParentOfType<FunctionOpInterface>()
                                                    .getFunctionBody()
                                                    .front() &&
                  llvm::all_of(streams, [](Stream &s) { return tmaBox(s).has_value(); });
    Location loc = loop.getLoc();
    OpBuilder b(loop);
    auto i32 = [&](int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32).getResult(); };
    MLIRContext *context = b.getContext();
    // The rings, right before the loop: they live from its prologue to its
    // end, so the rings of consecutive loops can share bytes.
    for (Stream &stream : streams)
      makeRing(b, loc, stream, slots);

    // TMA: the tensor maps, the bytes one iteration brings, the barriers.
    TMACopies tma;
    Value full, empty;
    if (useTMA) {
      tma = tmaCopies(streams, *maps);
      full = MBarrierCreateOp::create(b, loc, MBarrierType::get(context, slots),
                                      b.getI32IntegerAttr(1), IntegerAttr());
      // With two or more warpgroups, every thread arrives on its slot's
      // "empty" barrier when its iteration is done with it, and the first
      // warp waits there before refilling the slot: no block barrier at the
      // end of each iteration, so the warpgroups need not run in step (on
      // the d = 64 forward that barrier was a quarter of the warps' stalls,
      // ncu; +2-5 %). One warpgroup runs in step anyway, and there the
      // arrivals cost more than the barrier (the d = 64 dQ kernel: backward
      // -2 %; bench/RESULTS.md, session 32).
      auto threads = loop->getParentOfType<FunctionOpInterface>()->getAttrOfType<DenseI32ArrayAttr>(
          "nvvm.reqntid");
      if (threads && threads[0] > kWarpgroupThreads) {
        empty = MBarrierCreateOp::create(b, loc, MBarrierType::get(context, slots),
                                         b.getI32IntegerAttr(threads[0]), IntegerAttr());
        for (Stream &stream : streams)
          stream.ring.getDefiningOp()->setAttr(kReleasedByMBarrier, b.getUnitAttr());
      }
    }

    // Iteration `iv`'s copies into slot `slot`.
    auto copies = [&](OpBuilder &inside, Value iv, Value slot) {
      for (auto [i, stream] : llvm::enumerate(streams)) {
        SmallVector<Value> offsets = offsetsAt(inside, stream, loop, iv, IRMapping());
        auto ringType = cast<SharedMemoryType>(stream.ring.getType());
        Value dst = SlotOp::create(inside, loc, ringType.getSlotType(), stream.ring, slot);
        if (useTMA)
          TMALoadOp::create(inside, loc, tma.maps[i], offsets, dst, full, slot);
        else
          AsyncCopyOp::create(inside, loc, stream.load.getDesc(), offsets, dst);
      }
    };
    // ... issued at `at` when `iv` is below the upper bound; cp.async
    // commits a group after them, TMA announces their bytes first (thread
    // 0) and issues them from warp 0.
    // `freed`: the phase of the slot's "empty" barrier that says its last
    // readers are done (none in the prologue: the slots are fresh).
    auto issue = [&](OpBuilder &at, Value iv, Value slot, Value freed) {
      Value inRange = arith::CmpIOp::create(at, loc, arith::CmpIPredicate::slt, iv,
                                            loop.getUpperBound());
      auto guard = scf::IfOp::create(at, loc, TypeRange{}, inRange, /*withElse=*/false);
      OpBuilder inside = OpBuilder::atBlockBegin(&guard.getThenRegion().front());
      if (!useTMA) {
        copies(inside, iv, slot);
        AsyncCommitGroupOp::create(at, loc, ValueRange{});
        return;
      }
      OpBuilder warp = announceBytes(inside, loc, full, slot, tma.bytes);
      if (empty && freed)
        MBarrierWaitOp::create(warp, loc, empty, slot, freed);
      copies(warp, iv, slot);
    };

    // Prologue: iterations 0 .. stages - 2.
    for (int64_t s = 0; s + 1 < slots; ++s) {
      Value iv = arith::AddIOp::create(
          b, loc, loop.getLowerBound(),
          arith::MulIOp::create(b, loc, loop.getStep(), i32(s)));
      issue(b, iv, i32(s), Value());
    }

    // In the body: wait, issue stages - 1 ahead (into the slot the last
    // iteration read), read this iteration's slot.
    OpBuilder body = OpBuilder::atBlockBegin(loop.getBody());
    auto c = [&](int64_t v) { return arith::ConstantIntOp::create(body, loc, v, 32).getResult(); };
    Position at = positionOf(body, loc, loop.getInductionVar(), loop.getLowerBound(),
                             loop.getStep(), Value(), slots);
    Value aheadIteration = arith::AddIOp::create(body, loc, at.iteration, c(slots - 1));
    Value ahead = arith::RemUIOp::create(body, loc, aheadIteration, c(slots));
    if (useTMA)
      MBarrierWaitOp::create(body, loc, full, at.slot, at.round);
    else
      AsyncWaitOp::create(body, loc, ValueRange{}, slots - 2);
    Value aheadIv = arith::AddIOp::create(
        body, loc, loop.getInductionVar(),
        arith::MulIOp::create(body, loc, loop.getStep(), c(slots - 1)));
    // The slot `ahead` is filled for iteration + slots - 1, of round r =
    // (iteration + slots - 1) / slots; round r - 1 read it last, so the wait
    // is for the empty barrier's phase of parity r + 1 (on a fresh barrier
    // that parity's phase counts as done: round 0 waits for nothing).
    Value freed;
    if (empty)
      freed = arith::AddIOp::create(
          body, loc, arith::DivUIOp::create(body, loc, aheadIteration, c(slots)), c(1));
    issue(body, aheadIv, ahead, freed);
    readSlots(body, streams, at.slot);
    if (empty) {
      OpBuilder end(loop.getBody()->getTerminator());
      MBarrierArriveOp::create(end, loc, empty, at.slot, IntegerAttr());
    }

    // Nothing in flight after the loop (TMA issues only copies that a later
    // iteration waits for).
    if (useTMA)
      return;
    b.setInsertionPointAfter(loop);
    AsyncWaitOp::create(b, loc, ValueRange{}, 0);
  }
};

} // namespace

Value streams::firstWarp(OpBuilder &b, Location loc) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                               WarpIdOp::create(b, loc, b.getI32Type()),
                               arith::ConstantIntOp::create(b, loc, 0, 32));
}

bool streams::isFirstWarp(Value condition) {
  auto compare = condition.getDefiningOp<arith::CmpIOp>();
  return compare && compare.getPredicate() == arith::CmpIPredicate::eq &&
         compare.getLhs().getDefiningOp<WarpIdOp>() && matchPattern(compare.getRhs(), m_Zero());
}

OpBuilder streams::announceBytes(OpBuilder &b, Location loc, Value full, Value slot,
                                 int64_t bytes) {
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value warp0 = firstWarp(b, loc);
  Value thread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                        arith::ConstantIntOp::create(b, loc, 0, 32));
  auto inWarp0 = scf::IfOp::create(b, loc, TypeRange{}, warp0, /*withElse=*/false);
  OpBuilder warp = OpBuilder::atBlockBegin(&inWarp0.getThenRegion().front());
  auto announce = scf::IfOp::create(warp, loc, TypeRange{}, thread0, /*withElse=*/false);
  OpBuilder first = OpBuilder::atBlockBegin(&announce.getThenRegion().front());
  MBarrierArriveOp::create(first, loc, full, slot, first.getI32IntegerAttr(bytes));
  return warp;
}
