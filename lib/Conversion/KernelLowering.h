//===- KernelLowering.h - the state of tile-to-llvm (private) ---*- C++ -*-===//
//
// Shared by the files of the tile-to-llvm pass: TileToLLVM.cpp (the pass, the
// kernel, control flow, elementwise ops, moving tiles between layouts),
// TileToLLVMMemory.cpp (global and shared-memory accesses),
// TileToLLVMCompute.cpp (mma.sync and reductions), TileToLLVMPipeline.cpp
// (cp.async streams) and TileToLLVMWgmma.cpp (wgmma on sm_90a).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_CONVERSION_KERNELLOWERING_H
#define TILEC_LIB_CONVERSION_KERNELLOWERING_H

#include "tilec/Conversion/LayoutAssignment.h"
#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace tilec::lowering {

using namespace mlir;
using tilec::Coords;
using tilec::LinearLayout;
namespace tile = tilec::tile;
namespace tilegpu = tilec::tilegpu;

constexpr int64_t kGlobal = 1, kShared = 3;

/// A tile in one thread: its layout and the values of its registers. `splat`
/// is set when every element is that scalar (so it can be re-created in any
/// layout for free).
struct TileRegs {
  LinearLayout layout;
  SmallVector<Value> regs;
  Value splat;
};

struct Descriptor {
  Value base;
  Type elementType;
  SmallVector<Value> shape, strides;
};

/// How destination coordinates map to source coordinates in a move.
enum class MoveKind { Identity, Broadcast, Reshape };

/// A B operand staged in shared memory: the tile stored once by the threads
/// that loaded it, read back one mma fragment at a time right before its mma.
struct StagedOperand {
  Value base;           ///< shared-memory address of element (0, 0)
  bool kContiguous;     ///< elements (k, n) and (k+1, n) are adjacent
  int64_t pitch;        ///< elements between rows of the fast dimension
  /// wgmma's 128-byte-swizzled layout instead of padded rows: the tile is cut
  /// into column blocks of 64 elements (128 bytes), each `rows` x 128 bytes;
  /// in a block, 16-byte chunk j of row r sits at chunk j ^ (r % 8).
  bool swizzled = false;
  int64_t rows = 0;     ///< rows of the tile in memory (swizzled only)
};

/// A tile.load_block of a loop body streamed into a ring of shared-memory
/// slots by cp.async, `stages - 1` iterations ahead of the tile.dots that read
/// it as their B operand (through reshapes of unit dimensions and a
/// transpose). The first reader waits for the block; the others read the
/// same slot.
struct Stream {
  tile::LoadBlockOp load;
  SmallVector<tile::DotOp> readers; ///< in program order
  bool reads(tile::DotOp dot) const { return llvm::is_contained(readers, dot); }
  /// Whether `dot`, one of the readers, reads the block transposed.
  bool kContiguousFor(tile::DotOp dot) const {
    return kContiguous[llvm::find(readers, dot) - readers.begin()];
  }
  int64_t rows, cols;   ///< the block as rows x cols (unit dimensions dropped)
  int64_t pitch;        ///< elements between rows in a slot (cols + 16 bytes)
  SmallVector<bool> kContiguous; ///< per reader: it reads the block transposed
  bool swizzled;        ///< slots in wgmma's layout (StagedOperand::swizzled)
  int64_t slotBytes;
  int64_t ringOffset;   ///< bytes from the start of the ring area
  SmallVector<Operation *> views; ///< the reshapes/transposes it replaces
};

/// A ring passed from one streaming loop to the next one that streams the
/// same blocks over the following range: its blocks from `nextIv` on are in
/// flight or landed, the first of them in `slot`.
struct RingHandoff {
  scf::ForOp loop;      ///< the loop that takes the ring over
  Value slot, nextIv;
};

/// The streams of the loop being lowered and where its iteration stands.
struct StreamingLoop {
  SmallVector<Stream> streams;
  int64_t stages;
  Value step, upper;
  Value iv, slot;       ///< this iteration's induction variable and slot
};

class KernelLowering {
public:
  KernelLowering(func::FuncOp kernel, tilec::LayoutAssignment &layouts, bool assumeAligned,
                 int64_t pipelineStages, bool aInShared, int64_t minBlocksPerSM, bool wgmma)
      : kernel(kernel), layouts(layouts), b(kernel.getContext()), loc(kernel.getLoc()),
        assumeAligned(assumeAligned), pipelineStages(pipelineStages), aInShared(aInShared),
        minBlocksPerSM(minBlocksPerSM), wgmma(wgmma) {}

  LogicalResult run();

private:
  // Types and constants.
  Type i1() { return b.getI1Type(); }
  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Type ptrType(int64_t space) { return LLVM::LLVMPointerType::get(b.getContext(), space); }
  Type scalarType(Type type) {
    Type element = getElementTypeOrSelf(type);
    return isa<tile::PointerType>(element) ? ptrType(kGlobal) : element;
  }
  Value constI32(int64_t v) { return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(v)); }
  Value constI64(int64_t v) { return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v)); }
  Value constBool(bool v) { return arith::ConstantOp::create(b, loc, b.getBoolAttr(v)); }
  Value constOf(Type type, double v);

  // Thread geometry, computed once in the prologue.
  SmallVector<Value> threadCoords(const LinearLayout &layout);
  SmallVector<Value> coords(const LinearLayout &layout, int64_t reg);
  /// coords(layout, reg) as this thread's coordinates plus a constant, when
  /// the register bits never overlap the lane and warp bits (XOR is then
  /// addition): addresses of all registers share one base and differ by
  /// immediates. Else the constant is zero.
  std::pair<SmallVector<Value>, Coords> splitCoords(const LinearLayout &layout, int64_t reg);
  Value linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape);
  /// The thread's index in the program: warp · 32 + lane.
  Value threadId() {
    return arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, warp, constI32(32)), lane);
  }
  void barrier() { NVVM::Barrier0Op::create(b, loc); }

  // Moving tiles between layouts.
  /// `src` in `dst` without crossing threads (same registers, repeated or
  /// picked), or nullopt when data must cross threads.
  std::optional<TileRegs> moveWithinThreads(const TileRegs &src, const LinearLayout &dst,
                                            MoveKind kind);
  TileRegs convert(const TileRegs &src, const LinearLayout &dst, Type elementType,
                   MoveKind kind = MoveKind::Identity);
  TileRegs exchange(const TileRegs &src, const LinearLayout &dst, Type elementType,
                    MoveKind kind);
  Value sharedAddress(Value elementIndex, Type elementType);
  /// The value of `value` in `layout`: its registers if they already fit,
  /// else the cheap computation that produced it re-run in `layout` (index
  /// and mask arithmetic), else an exchange through shared memory.
  TileRegs operandIn(Value value, const LinearLayout &layout,
                     MoveKind kind = MoveKind::Identity);
  /// Re-creates `value` directly in `layout` when it is computed only from
  /// scalars, iotas and constants by elementwise, expand_dims and broadcast
  /// ops (at most `budget` of them).
  std::optional<TileRegs> rematerialize(Value value, const LinearLayout &layout, int &budget);

  // Lowering.
  LogicalResult lowerBlock(Block &block);
  /// Lowers `op`, then keeps its result in shared memory if it is a
  /// loop-invariant A operand (aInShared).
  LogicalResult lower(Operation *op);
  LogicalResult lowerOp(Operation *op);
  LogicalResult lowerElementwise(Operation *op);
  LogicalResult lowerScalar(Operation *op);
  /// `op` on scalar operands, with the math NVPTX cannot lower rewritten.
  Operation *scalarOp(Operation *op, ValueRange operands, TypeRange types);
  LogicalResult lowerFor(scf::ForOp op);
  LogicalResult lowerIf(scf::IfOp op);
  LogicalResult lowerLoadBlock(tile::LoadBlockOp op);
  /// The uniform condition under which a block access may use `width`-element
  /// vectors: unit innermost stride, aligned base, strides, size and offset.
  Value vectorAccessAllowed(const Descriptor &d, ArrayRef<Value> offsets, int64_t width);
  void trapUnlessVectorOffset(Value offset, int64_t width);
  /// Records that `d`'s tensor is accessed with vectors and no fallback.
  void requireAligned(const Descriptor &d, Value offset, int64_t width);
  /// Emits `aligned` alone where tensors are aligned by contract
  /// (assume-aligned: checked at launch), else both under a uniform branch
  /// on vectorAccessAllowed, `fallback` where it fails.
  void alignedOrBranch(const Descriptor &d, ArrayRef<Value> offsets, int64_t width,
                       function_ref<void()> aligned, function_ref<void()> fallback);
  SmallVector<Value> loadVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                 const LinearLayout &l, int64_t width, Value padding);
  void storeVectors(const Descriptor &d, ArrayRef<Value> offsets, const TileRegs &value,
                    int64_t width);
  /// Elements to and from one 32-bit word.
  Value packWord(ArrayRef<Value> elements);
  SmallVector<Value> unpackWord(Value word, Type element);
  LogicalResult lowerStoreBlock(tile::StoreBlockOp op);
  LogicalResult lowerAtomicAddBlock(tile::AtomicAddBlockOp op);
  /// sm_90: the tile's rows stored into the scratch area and added into the
  /// block of `d` by one cp.reduce.async.bulk each (needs every column of
  /// the block inside the tensor and 16-byte aligned rows).
  void bulkAddRows(const Descriptor &d, ArrayRef<Value> offsets, const TileRegs &src,
                   const LinearLayout::SingleCopy &single);
  LogicalResult lowerLoad(tile::LoadOp op);
  LogicalResult lowerStore(tile::StoreOp op);
  LogicalResult lowerDot(tile::DotOp op);

  // wgmma (sm_90a, TileToLLVMWgmma.cpp).
  /// `dot` has a shape, element type and warp arrangement (one warpgroup)
  /// that wgmma m64nNk16 covers.
  bool wgmmaShape(tile::DotOp dot);
  /// `dot` will run as wgmma: wgmmaShape, and its B operand is streamed
  /// into swizzled slots of a top-level loop.
  bool wgmmaReady(tile::DotOp dot);
  /// `dot` as wgmma.mma_async: B from the swizzled slot `bSmem`, A from a
  /// swizzled resident copy or from registers, accumulators in registers
  /// (the same layout as mma.sync's), waited for before returning.
  LogicalResult lowerDotWgmma(tile::DotOp op, const StagedOperand &bSmem);
  /// A wgmma operand: a shared-memory descriptor plus a byte offset, or (A
  /// only) four 32-bit words of registers.
  struct WgmmaOperand {
    Value descriptor;
    int64_t offset = 0;
    SmallVector<Value> words;
  };
  /// One `instruction` (wgmma.mma_async...m64nNk16...) adding A·B to `acc`
  /// (`accCount` f32 per thread; empty: the sum starts at zero); returns the
  /// new accumulators.
  SmallVector<Value> issueWgmma(StringRef instruction, int64_t accCount, ArrayRef<Value> acc,
                                const WgmmaOperand &a, const WgmmaOperand &bOperand,
                                bool transposeB);
  /// The 64-bit wgmma shared-memory descriptor of `base` with 128-byte
  /// swizzle and the given leading / stride byte offsets.
  Value matrixDescriptor(Value base, int64_t leadingBytes, int64_t strideBytes);
  /// `values` passed through an empty asm with side effects: their producers
  /// stay before it and their users after it (orders register accesses
  /// around wgmma.fence and wgmma.wait_group).
  SmallVector<Value> pinRegisters(ArrayRef<Value> values);
  /// After this thread's cp.async copies have landed: makes them visible to
  /// the async proxy (wgmma reads shared memory through it).
  void fenceProxyAsync();
  /// If `value` is the result of a dot whose wgmma group may still run:
  /// waits for that group (and the older ones) and pins their results.
  void waitForWgmma(Value value);
  void waitForAllWgmma();
  /// Waits for the wgmma results that `op` reads before it runs.
  void waitForReadsOf(Operation *op);
  StagedOperand stage(const TileRegs &tile, Type element);
  /// The B fragment (k16 x n8) whose first element for this lane is at
  /// `first` + `offset`.
  SmallVector<Value> loadFragmentB(const StagedOperand &staged, ArrayRef<Value> first,
                                   const Coords &offset, Type element);
  LogicalResult lowerReduce(tile::ReduceOp op);

  // Streaming block loads through shared memory (TileToLLVMPipeline.cpp).
  /// The block loads of `loop`'s body that can be streamed, in the order
  /// their dots read them.
  SmallVector<Stream> planStreams(scf::ForOp loop);
  /// planStreams without recording anything.
  SmallVector<Stream> findStreams(scf::ForOp loop);
  /// The loop right after `loop` when it streams the same blocks (same
  /// descriptors, types and offsets up to the induction variable) from
  /// where `loop` ends, with the same step; null otherwise.
  scf::ForOp nextStreamingLoop(scf::ForOp loop);
  /// Takes over the ring of the previous loop (no drain, no priming, unless
  /// this loop does not start where the ring's blocks do); returns the slot
  /// of this loop's first block.
  Value resumeStreams(SmallVector<Stream> streams, Value lower, Value upper, Value step,
                      const RingHandoff &handoff);
  /// Sets up the ring for `loop` and issues the first `stages - 1` iterations.
  void startStreams(SmallVector<Stream> streams, Value lower, Value upper,
                    Value step);
  /// cp.async of `s`'s block at induction value `iv` into ring slot `slot`
  /// (nothing copied unless `enabled`); one commit group.
  void issueStream(const Stream &s, Value iv, Value slot, Value enabled);
  /// issueStream when the threads cover whole rows per pass: one address
  /// per thread, stepped from pass to pass.
  void issueStreamRows(const Stream &s, ArrayRef<Value> offsets, Value slotBase, Value enabled);
  /// The threads cover whole rows of `s`'s block in each pass.
  bool coversWholeRows(const Stream &s);
  /// A rows x cols block can be copied into wgmma's swizzled layout.
  bool swizzleFits(int64_t rows, int64_t cols);
  /// How many uses of `value` are A operands of dots that run as wgmma.
  int64_t countWgmmaReaders(Value value);
  /// A block load whose value (through unit reshapes) is a loop-invariant A
  /// operand kept in shared memory goes there by cp.async, without
  /// registers; false (nothing emitted) when it does not qualify.
  bool copyToResident(tile::LoadBlockOp load);
  /// Waits until at most `youngerGroups` cp.async groups are pending and
  /// makes resident copies visible, if any are in flight.
  void awaitResident(int64_t youngerGroups);
  /// issueStream for any block: every 16-byte chunk addressed on its own.
  void issueStreamChunks(const Stream &s, ArrayRef<Value> offsets, Value slot, Value enabled);
  /// Waits for this iteration's block of `s`, makes it visible to the whole
  /// block, issues the block `stages - 1` iterations ahead into the slot just
  /// freed, and returns this iteration's slot as a staged operand.
  StagedOperand awaitStream(const Stream &s);
  Value slotAddress(const Stream &s, Value slot);
  /// `offset` bytes into the resident or the ring area of shared memory.
  Value areaAddress(bool ring, Value offset);
  /// Places the resident and ring areas after the scratch area once all
  /// sizes are known.
  void placeAreas();

  // Loop-invariant A operands kept in shared memory (aInShared).
  /// `value` is used only as the A operand of dots in loops it is defined
  /// outside of, in their operand layout.
  bool isInvariantOperandA(Value value, const LinearLayout &layout);
  /// Stores `value` once in the resident area; its dots read it from there.
  void keepInShared(Value value);
  SmallVector<Value> loadMatrices(Value base, int64_t offsetBytes, int64_t count,
                                  bool transpose);
  SmallVector<Value> loadFragmentA(const StagedOperand &staged, ArrayRef<Value> first,
                                   const Coords &offset, Type element);
  void storeStaged(const TileRegs &tile, Type element, const StagedOperand &to);
  Value castScalar(Value value, Type to);
  LLVM::InlineAsmOp inlineAsm(TypeRange results, ValueRange operands, StringRef text,
                              StringRef constraints, bool sideEffects);
  Value predicatedLoad(Value ptr, Value pred, Type type, Value other, Operation *op);
  void predicatedStore(Value ptr, Value value, Value pred);
  Value combine(tile::ReduceKind kind, Value a, Value c);
  SmallVector<Value> flatten(ValueRange values, ArrayRef<const LinearLayout *> layouts);
  void bindFlattened(ValueRange originals, ValueRange flat);

  /// While a loop body is lowered: the thread index read again at its
  /// start (an asm with side effects, so LLVM cannot hoist it or what is
  /// derived from it out of the loop), thread coordinates computed from it.
  class ThreadGeometryScope {
  public:
    ThreadGeometryScope(KernelLowering &lowering, scf::ForOp loop);
    ~ThreadGeometryScope();

  private:
    KernelLowering &lowering;
    Value lane, warp;
    Operation *prologueEnd;
    std::map<std::string, SmallVector<Value>> coordCache;
  };
  /// Reads the thread index again (an asm with side effects, which LLVM can
  /// neither hoist nor merge with an earlier read) and derives lane, warp and
  /// thread coordinates from it from here on.
  void renewThreadGeometry();
  /// The scf.for ops whose bodies are being lowered, innermost last.
  SmallVector<Operation *> loopStack;

  func::FuncOp kernel;
  tilec::LayoutAssignment &layouts;
  OpBuilder b;
  Location loc;
  LLVM::LLVMFuncOp function;
  Operation *prologueEnd = nullptr;
  Value lane, warp;
  std::map<std::string, SmallVector<Value>> coordCache;
  DenseMap<Value, Value> scalars;
  DenseMap<Value, TileRegs> tiles;
  DenseMap<Value, Descriptor> descriptors;
  int64_t sharedBytes = 0;
  bool assumeAligned;
  int64_t pipelineStages;
  /// The loop whose loads are being streamed (one at a time; nested loops
  /// load as usual), the ops it replaced, and the ring area.
  std::optional<StreamingLoop> streaming;
  std::optional<RingHandoff> handoff;
  /// This iteration's slot of each stream of `streaming`, once its first
  /// reader waited for it.
  DenseMap<const Stream *, StagedOperand> awaitedSlots;
  DenseSet<Operation *> streamedOps;
  int64_t ringBytes = 0;
  bool aInShared;
  int64_t minBlocksPerSM;
  /// Dots that qualify run as wgmma (sm_90a).
  bool wgmma;
  /// wgmma groups committed and not waited for, oldest first: the dot's
  /// result and the group's number (of wgmmaGroups committed so far).
  struct PendingWgmma {
    Value result;
    int64_t group;
  };
  SmallVector<PendingWgmma> pendingWgmma;
  int64_t wgmmaGroups = 0;
  DenseMap<Value, StagedOperand> resident;
  /// Resident operands copied by cp.async that no one has waited for yet.
  bool residentInFlight = false;
  int64_t residentBytes = 0;
  /// Start offsets of the resident (false) and ring (true) areas, patched
  /// once the scratch size is known.
  SmallVector<std::pair<arith::ConstantOp, bool>> areaStarts;
  /// Kernel arguments (base pointers) accessed with vectors and no fallback.
  std::set<int64_t> alignedArgs;
};

} // namespace tilec::lowering

#endif // TILEC_LIB_CONVERSION_KERNELLOWERING_H
