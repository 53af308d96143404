//===- TileToLLVM.cpp - tile kernels to per-thread LLVM + NVVM code -------===//
//
// Each tile value becomes the registers its layout gives one thread; every
// op becomes per-register scalar code. Data that must cross threads goes
// through shared memory (a generic exchange derived from the two layouts) or
// warp shuffles (reductions). tile.dot becomes mma.sync m16n8k16.
//
//===----------------------------------------------------------------------===//

#include "tilec/Conversion/LayoutAssignment.h"
#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"

#include <limits>
#include <map>
#include <set>

namespace tilec {
#define GEN_PASS_DEF_TILETOLLVM
#include "tilec/Dialect/Tile/Passes.h.inc"
} // namespace tilec

using namespace mlir;
using tilec::Coords;
using tilec::LinearLayout;
namespace tile = tilec::tile;

namespace {

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

class KernelLowering {
public:
  KernelLowering(func::FuncOp kernel, tilec::LayoutAssignment &layouts, bool assumeAligned)
      : kernel(kernel), layouts(layouts), b(kernel.getContext()), loc(kernel.getLoc()),
        assumeAligned(assumeAligned) {}

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
  Value constOf(Type type, double v);

  // Thread geometry, computed once in the prologue.
  SmallVector<Value> threadCoords(const LinearLayout &layout);
  SmallVector<Value> coords(const LinearLayout &layout, int64_t reg);
  Value linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape);
  void barrier() { NVVM::Barrier0Op::create(b, loc); }

  // Moving tiles between layouts.
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
  LogicalResult lower(Operation *op);
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
  SmallVector<Value> loadVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                 const LinearLayout &l, int64_t width, Value padding);
  void storeVectors(const Descriptor &d, ArrayRef<Value> offsets, const TileRegs &value,
                    int64_t width);
  /// Elements to and from one 32-bit word.
  Value packWord(ArrayRef<Value> elements);
  SmallVector<Value> unpackWord(Value word, Type element);
  LogicalResult lowerStoreBlock(tile::StoreBlockOp op);
  LogicalResult lowerLoad(tile::LoadOp op);
  LogicalResult lowerStore(tile::StoreOp op);
  LogicalResult lowerDot(tile::DotOp op);
  struct StagedOperand stage(const TileRegs &tile, Type element);
  SmallVector<Value> loadFragmentB(const struct StagedOperand &staged, Value k, Value n,
                                   Type element);
  LogicalResult lowerReduce(tile::ReduceOp op);
  Value castScalar(Value value, Type to);
  LLVM::InlineAsmOp inlineAsm(TypeRange results, ValueRange operands, StringRef text,
                              StringRef constraints, bool sideEffects);
  Value predicatedLoad(Value ptr, Value pred, Type type, Value other, Operation *op);
  void predicatedStore(Value ptr, Value value, Value pred);
  Value combine(tile::ReduceKind kind, Value a, Value c);
  SmallVector<Value> flatten(ValueRange values, ArrayRef<const LinearLayout *> layouts);
  void bindFlattened(ValueRange originals, ValueRange flat);

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
  /// Kernel arguments (base pointers) accessed with vectors and no fallback.
  std::set<int64_t> alignedArgs;
};

Value KernelLowering::constOf(Type type, double v) {
  if (auto f = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(f, v));
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, static_cast<int64_t>(v)));
}

//===----------------------------------------------------------------------===//
// Thread geometry
//===----------------------------------------------------------------------===//

SmallVector<Value> KernelLowering::threadCoords(const LinearLayout &layout) {
  std::string key = layout.str();
  auto it = coordCache.find(key);
  if (it != coordCache.end())
    return it->second;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(prologueEnd);
  SmallVector<Value> result;
  for (int64_t d = 0; d < layout.rank(); ++d) {
    Value c = constI32(0);
    auto addBits = [&](Value id, const std::vector<Coords> &bases) {
      for (size_t bit = 0; bit < bases.size(); ++bit) {
        if (bases[bit][d] == 0)
          continue;
        Value set = arith::AndIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, id, constI32(bit)), constI32(1));
        c = arith::XOrIOp::create(b, loc, c,
                                  arith::MulIOp::create(b, loc, set, constI32(bases[bit][d])));
      }
    };
    addBits(lane, layout.lanes());
    addBits(warp, layout.warps());
    result.push_back(c);
  }
  if (b.getInsertionPoint() != b.getInsertionBlock()->begin())
    prologueEnd = &*std::prev(b.getInsertionPoint());
  coordCache[key] = result;
  return result;
}

SmallVector<Value> KernelLowering::coords(const LinearLayout &layout, int64_t reg) {
  SmallVector<Value> thread = threadCoords(layout);
  Coords part = layout.regPart(reg);
  SmallVector<Value> result;
  for (int64_t d = 0; d < layout.rank(); ++d)
    result.push_back(part[d] ? Value(arith::XOrIOp::create(b, loc, thread[d], constI32(part[d])))
                             : thread[d]);
  return result;
}

Value KernelLowering::linear(ArrayRef<Value> coords, ArrayRef<int64_t> shape) {
  Value index = constI32(0);
  for (size_t d = 0; d < shape.size(); ++d)
    index = arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, index, constI32(shape[d])),
                                  coords[d]);
  return index;
}

//===----------------------------------------------------------------------===//
// Moving data between layouts
//===----------------------------------------------------------------------===//

static Coords mapCoords(const Coords &dst, MoveKind kind, const LinearLayout &src,
                        const LinearLayout &dstLayout) {
  switch (kind) {
  case MoveKind::Identity: return dst;
  case MoveKind::Broadcast: {
    Coords c = dst;
    for (size_t d = 0; d < c.size(); ++d)
      if (src.shape()[d] == 1)
        c[d] = 0;
    return c;
  }
  case MoveKind::Reshape: {
    int64_t index = dstLayout.linearIndex(dst);
    Coords c(src.rank());
    for (int64_t d = src.rank() - 1; d >= 0; --d) {
      c[d] = index % src.shape()[d];
      index /= src.shape()[d];
    }
    return c;
  }
  }
  return dst;
}

TileRegs KernelLowering::convert(const TileRegs &src, const LinearLayout &dst, Type elementType,
                                 MoveKind kind) {
  if (kind == MoveKind::Identity && src.layout == dst)
    return src;
  if (src.splat)
    return TileRegs{dst, SmallVector<Value>(dst.numRegs(), src.splat), src.splat};
  auto move = tilec::registerLocalMove(
      src.layout, dst, [&](const Coords &c) { return mapCoords(c, kind, src.layout, dst); });
  if (move) {
    TileRegs out{dst, {}, {}};
    for (int64_t from : *move)
      out.regs.push_back(src.regs[from]);
    return out;
  }
  return exchange(src, dst, elementType, kind);
}

TileRegs KernelLowering::operandIn(Value value, const LinearLayout &layout, MoveKind kind) {
  const TileRegs &src = tiles[value];
  Type element = scalarType(value.getType());
  if ((kind == MoveKind::Identity && src.layout == layout) || src.splat)
    return convert(src, layout, element, kind);
  if (tilec::registerLocalMove(src.layout, layout, [&](const Coords &c) {
        return mapCoords(c, kind, src.layout, layout);
      }))
    return convert(src, layout, element, kind);
  if (kind == MoveKind::Identity) {
    int budget = 24;
    if (std::optional<TileRegs> again = rematerialize(value, layout, budget))
      return *again;
  }
  return convert(src, layout, element, kind);
}

std::optional<TileRegs> KernelLowering::rematerialize(Value value, const LinearLayout &layout,
                                                      int &budget) {
  Operation *def = value.getDefiningOp();
  if (!def || --budget < 0)
    return std::nullopt;
  auto filled = [&](Value scalar) {
    return TileRegs{layout, SmallVector<Value>(layout.numRegs(), scalar), scalar};
  };
  if (tiles.count(value) && tiles[value].splat)
    return filled(tiles[value].splat);
  if (isa<tile::IotaOp>(def)) {
    TileRegs out{layout, {}, {}};
    for (int64_t r = 0; r < layout.numRegs(); ++r)
      out.regs.push_back(coords(layout, r)[0]);
    return out;
  }
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(def)) {
    std::optional<TileRegs> src =
        rematerialize(expand.getSrc(), layout.dropUnitDim(expand.getAxis()), budget);
    if (!src)
      return std::nullopt;
    return TileRegs{layout, src->regs, src->splat};
  }
  if (auto bcast = dyn_cast<tile::BroadcastOp>(def)) {
    std::vector<int64_t> collapsed;
    ArrayRef<int64_t> from = bcast.getSrc().getType().getShape();
    for (int64_t d = 0; d < static_cast<int64_t>(from.size()); ++d)
      if (from[d] == 1 && layout.shape()[d] != 1)
        collapsed.push_back(d);
    std::optional<TileRegs> src = rematerialize(bcast.getSrc(), layout.collapse(collapsed), budget);
    if (!src)
      return std::nullopt;
    return TileRegs{layout, src->regs, src->splat};
  }
  bool elementwise = def->getNumResults() == 1 && def->getNumRegions() == 0 &&
                     (isa<arith::ArithDialect, math::MathDialect>(def->getDialect()) ||
                      isa<tile::CastOp>(def));
  if (!elementwise)
    return std::nullopt;
  SmallVector<TileRegs> operands;
  for (Value operand : def->getOperands()) {
    if (!isa<RankedTensorType>(operand.getType())) {
      operands.push_back(filled(scalars[operand]));
      continue;
    }
    std::optional<TileRegs> t = rematerialize(operand, layout, budget);
    if (!t)
      return std::nullopt;
    operands.push_back(*t);
  }
  Type resultType = scalarType(def->getResult(0).getType());
  TileRegs out{layout, {}, {}};
  for (int64_t r = 0; r < layout.numRegs(); ++r) {
    SmallVector<Value> regOperands;
    for (const TileRegs &t : operands)
      regOperands.push_back(t.regs[r]);
    out.regs.push_back(isa<tile::CastOp>(def)
                           ? castScalar(regOperands[0], resultType)
                           : scalarOp(def, regOperands, resultType)->getResult(0));
  }
  return out;
}

Value KernelLowering::sharedAddress(Value elementIndex, Type elementType) {
  unsigned bytes = isa<LLVM::LLVMPointerType>(elementType)
                       ? 8
                       : std::max(1u, elementType.getIntOrFloatBitWidth() / 8);
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType(kShared), "tilec_smem");
  Value offset = arith::MulIOp::create(b, loc, elementIndex, constI32(bytes));
  return LLVM::GEPOp::create(b, loc, ptrType(kShared), b.getI8Type(), base, ValueRange{offset});
}

TileRegs KernelLowering::exchange(const TileRegs &src, const LinearLayout &dst, Type elementType,
                                  MoveKind kind) {
  Type stored = elementType.isInteger(1) ? b.getI8Type() : elementType;
  unsigned bytes = isa<LLVM::LLVMPointerType>(stored) ? 8 : stored.getIntOrFloatBitWidth() / 8;
  sharedBytes = std::max(sharedBytes, src.layout.numElements() * int64_t(bytes));
  barrier();
  for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
    Value value = src.regs[r];
    if (elementType.isInteger(1))
      value = arith::ExtUIOp::create(b, loc, stored, value);
    Value index = linear(coords(src.layout, r), src.layout.shape());
    LLVM::StoreOp::create(b, loc, value, sharedAddress(index, stored));
  }
  barrier();
  TileRegs out{dst, {}, {}};
  for (int64_t r = 0; r < dst.numRegs(); ++r) {
    SmallVector<Value> c = coords(dst, r);
    Value index;
    if (kind == MoveKind::Reshape) {
      index = linear(c, dst.shape()); // row-major order is what reshape keeps
    } else {
      if (kind == MoveKind::Broadcast)
        for (int64_t d = 0; d < src.layout.rank(); ++d)
          if (src.layout.shape()[d] == 1)
            c[d] = constI32(0);
      index = linear(c, src.layout.shape());
    }
    Value value = LLVM::LoadOp::create(b, loc, stored, sharedAddress(index, stored));
    if (elementType.isInteger(1))
      value = arith::TruncIOp::create(b, loc, elementType, value);
    out.regs.push_back(value);
  }
  return out;
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

LogicalResult KernelLowering::run() {
  MLIRContext *ctx = kernel.getContext();
  for (BlockArgument arg : kernel.getArguments())
    if (!isa<tile::PointerType, IntegerType, FloatType>(arg.getType()))
      return kernel.emitError("the GPU lowering takes pointers and scalars as kernel arguments; "
                              "argument ")
             << arg.getArgNumber() << " is " << arg.getType()
             << " (make descriptors inside the kernel with tile.make_desc)";
  b.setInsertionPoint(kernel);
  SmallVector<Type> argTypes;
  for (Type type : kernel.getArgumentTypes())
    argTypes.push_back(scalarType(type));
  auto fnType = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), argTypes);
  function = LLVM::LLVMFuncOp::create(b, loc, kernel.getName(), fnType);
  function->setAttr(NVVM::NVVMDialect::getKernelFuncAttrName(), b.getUnitAttr());
  int64_t threads = 32 * layouts.warps();
  function->setAttr(NVVM::NVVMDialect::getReqntidAttrName(),
                    b.getDenseI32ArrayAttr({static_cast<int32_t>(threads), 1, 1}));
  Block *entry = function.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  for (auto [old, arg] : llvm::zip(kernel.getArguments(), entry->getArguments()))
    scalars[old] = arg;

  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32());
  lane = arith::AndIOp::create(b, loc, tid, constI32(31));
  warp = arith::ShRUIOp::create(b, loc, tid, constI32(5));
  prologueEnd = warp.getDefiningOp();

  if (failed(lowerBlock(kernel.getBody().front())))
    return failure();
  function->setAttr("tilec.num_warps", b.getI64IntegerAttr(layouts.warps()));
  function->setAttr("tilec.shared_bytes", b.getI64IntegerAttr(sharedBytes));
  if (!alignedArgs.empty())
    function->setAttr("tilec.aligned_args",
                      b.getDenseI64ArrayAttr(SmallVector<int64_t>(alignedArgs.begin(),
                                                                  alignedArgs.end())));
  return success();
}

LogicalResult KernelLowering::lowerBlock(Block &block) {
  for (Operation &op : block)
    if (failed(lower(&op)))
      return failure();
  return success();
}

LogicalResult KernelLowering::lower(Operation *op) {
  loc = op->getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](func::ReturnOp) {
        LLVM::ReturnOp::create(b, loc, ValueRange{});
        return success();
      })
      .Case([&](scf::ForOp loop) { return lowerFor(loop); })
      .Case([&](scf::IfOp branch) { return lowerIf(branch); })
      .Case([&](tile::ProgramIdOp pid) {
        Value v = pid.getAxis() == 0   ? Value(NVVM::BlockIdXOp::create(b, loc, i32()))
                  : pid.getAxis() == 1 ? Value(NVVM::BlockIdYOp::create(b, loc, i32()))
                                       : Value(NVVM::BlockIdZOp::create(b, loc, i32()));
        scalars[pid] = v;
        return success();
      })
      .Case([&](tile::NumProgramsOp num) {
        Value v = num.getAxis() == 0   ? Value(NVVM::GridDimXOp::create(b, loc, i32()))
                  : num.getAxis() == 1 ? Value(NVVM::GridDimYOp::create(b, loc, i32()))
                                       : Value(NVVM::GridDimZOp::create(b, loc, i32()));
        scalars[num] = v;
        return success();
      })
      .Case([&](tile::MakeDescOp make) {
        Descriptor d{scalars[make.getBase()], make.getBase().getType().getPointeeType(), {}, {}};
        for (Value s : make.getShape()) d.shape.push_back(scalars[s]);
        for (Value s : make.getStrides()) d.strides.push_back(scalars[s]);
        descriptors[make.getResult()] = d;
        return success();
      })
      .Case([&](tile::LoadBlockOp load) { return lowerLoadBlock(load); })
      .Case([&](tile::StoreBlockOp store) { return lowerStoreBlock(store); })
      .Case([&](tile::LoadOp load) { return lowerLoad(load); })
      .Case([&](tile::StoreOp store) { return lowerStore(store); })
      .Case([&](tile::DotOp dot) { return lowerDot(dot); })
      .Case([&](tile::ReduceOp reduce) { return lowerReduce(reduce); })
      .Case([&](tile::IotaOp iota) {
        const LinearLayout &l = *layouts.lookup(iota);
        TileRegs out{l, {}, {}};
        for (int64_t r = 0; r < l.numRegs(); ++r)
          out.regs.push_back(coords(l, r)[0]);
        tiles[iota] = out;
        return success();
      })
      .Case([&](tile::SplatOp splat) {
        const LinearLayout &l = *layouts.lookup(splat);
        Value s = scalars[splat.getSrc()];
        tiles[splat] = TileRegs{l, SmallVector<Value>(l.numRegs(), s), s};
        return success();
      })
      .Case([&](tile::BroadcastOp bcast) {
        const LinearLayout &l = *layouts.lookup(bcast);
        const TileRegs &src = tiles[bcast.getSrc()];
        bool local = src.splat || tilec::registerLocalMove(src.layout, l, [&](const Coords &c) {
                       return mapCoords(c, MoveKind::Broadcast, src.layout, l);
                     });
        int budget = 24;
        std::optional<TileRegs> again;
        if (!local)
          again = rematerialize(bcast, l, budget);
        tiles[bcast] = again ? *again : operandIn(bcast.getSrc(), l, MoveKind::Broadcast);
        return success();
      })
      .Case<tile::ExpandDimsOp, tile::TransOp>([&](Operation *reshape) {
        // The assigned layout is the source's, reorganized: no data moves.
        const TileRegs &src = tiles[reshape->getOperand(0)];
        tiles[reshape->getResult(0)] =
            TileRegs{*layouts.lookup(reshape->getResult(0)), src.regs, src.splat};
        return success();
      })
      .Case([&](tile::ReshapeOp reshape) {
        tiles[reshape] = convert(tiles[reshape.getSrc()], *layouts.lookup(reshape),
                                 scalarType(reshape.getType()), MoveKind::Reshape);
        return success();
      })
      .Case([&](tile::AddPtrOp add) {
        Type pointee =
            cast<tile::PointerType>(getElementTypeOrSelf(add.getType())).getPointeeType();
        if (!isa<RankedTensorType>(add.getType())) {
          scalars[add] = LLVM::GEPOp::create(b, loc, ptrType(kGlobal), pointee,
                                             scalars[add.getPtr()],
                                             ValueRange{scalars[add.getOffset()]});
          return success();
        }
        const LinearLayout &l = *layouts.lookup(add);
        TileRegs ptrs = operandIn(add.getPtr(), l);
        TileRegs offs = isa<RankedTensorType>(add.getOffset().getType())
                            ? operandIn(add.getOffset(), l)
                            : TileRegs{l, SmallVector<Value>(l.numRegs(), scalars[add.getOffset()]), {}};
        TileRegs out{l, {}, {}};
        for (int64_t r = 0; r < l.numRegs(); ++r)
          out.regs.push_back(LLVM::GEPOp::create(b, loc, ptrType(kGlobal), pointee, ptrs.regs[r],
                                                 ValueRange{offs.regs[r]}));
        tiles[add] = out;
        return success();
      })
      .Case([&](tile::CastOp cast) -> LogicalResult {
        Type to = getElementTypeOrSelf(cast.getType());
        if (!isa<RankedTensorType>(cast.getType())) {
          scalars[cast] = castScalar(scalars[cast.getSrc()], to);
          return success();
        }
        const LinearLayout &l = *layouts.lookup(cast);
        TileRegs src = operandIn(cast.getSrc(), l);
        TileRegs out{l, {}, {}};
        for (Value v : src.regs)
          out.regs.push_back(castScalar(v, to));
        if (src.splat)
          out.splat = out.regs.empty() ? Value() : out.regs[0];
        tiles[cast] = out;
        return success();
      })
      .Case([&](arith::ConstantOp constant) -> LogicalResult {
        auto tensor = dyn_cast<RankedTensorType>(constant.getType());
        if (!tensor)
          return lowerScalar(constant);
        auto dense = dyn_cast<DenseElementsAttr>(constant.getValue());
        if (!dense || !dense.isSplat())
          return constant.emitError("the GPU lowering supports only splat tile constants");
        Value s = arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(dense.getSplatValue<Attribute>()));
        const LinearLayout &l = *layouts.lookup(constant);
        tiles[constant] = TileRegs{l, SmallVector<Value>(l.numRegs(), s), s};
        return success();
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (other->getDialect() && isa<tile::TileDialect>(other->getDialect()))
          return other->emitError("the GPU lowering does not support this op yet");
        if (other->getNumRegions())
          return other->emitError("the GPU lowering does not support this region op");
        bool hasTile = llvm::any_of(other->getResultTypes(),
                                    [](Type t) { return isa<RankedTensorType>(t); });
        return hasTile ? lowerElementwise(other) : lowerScalar(other);
      });
}

LLVM::InlineAsmOp KernelLowering::inlineAsm(TypeRange results, ValueRange operands,
                                            StringRef text, StringRef constraints,
                                            bool sideEffects) {
  return LLVM::InlineAsmOp::create(b, loc, results, operands, b.getStringAttr(text),
                                   b.getStringAttr(constraints),
                                   sideEffects ? b.getUnitAttr() : UnitAttr(), UnitAttr(),
                                   LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
}

Value KernelLowering::castScalar(Value value, Type to) {
  Type from = value.getType();
  if (from == to)
    return value;
  auto fromFloat = dyn_cast<FloatType>(from), toFloat = dyn_cast<FloatType>(to);
  if (fromFloat && toFloat)
    return fromFloat.getWidth() < toFloat.getWidth()
               ? Value(arith::ExtFOp::create(b, loc, to, value))
               : Value(arith::TruncFOp::create(b, loc, to, value));
  if (!fromFloat && toFloat)
    return arith::SIToFPOp::create(b, loc, to, value);
  if (fromFloat && !toFloat)
    return arith::FPToSIOp::create(b, loc, to, value);
  return from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth()
             ? Value(arith::ExtSIOp::create(b, loc, to, value))
             : Value(arith::TruncIOp::create(b, loc, to, value));
}

/// Creates `op` again on scalar operands with scalar result types.
static Operation *cloneOnScalars(OpBuilder &b, Operation *op, ValueRange operands,
                                 TypeRange resultTypes) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addTypes(resultTypes);
  state.propertiesAttr = op->getPropertiesAsAttribute();
  for (NamedAttribute attr : op->getDiscardableAttrs())
    state.addAttribute(attr.getName(), attr.getValue());
  return b.create(state);
}

Operation *KernelLowering::scalarOp(Operation *op, ValueRange operands, TypeRange types) {
  // Math without a direct NVPTX lowering: exp(x) = exp2(x·log2 e),
  // log(x) = log2(x)·ln 2, and log2 and tanh through the approximate PTX
  // instructions (ex2.approx is what llvm.exp2 becomes anyway).
  if (isa<math::ExpOp>(op)) {
    Value scaled = arith::MulFOp::create(b, loc, operands[0], constOf(types[0], M_LOG2E));
    return math::Exp2Op::create(b, loc, scaled);
  }
  if (types.size() == 1 && types[0].isF32()) {
    if (isa<math::TanhOp>(op))
      return inlineAsm(types[0], operands, "tanh.approx.f32 $0, $1;", "=f,f", false);
    if (isa<math::Log2Op>(op))
      return inlineAsm(types[0], operands, "lg2.approx.f32 $0, $1;", "=f,f", false);
    if (isa<math::LogOp>(op)) {
      Operation *log2 = inlineAsm(types[0], operands, "lg2.approx.f32 $0, $1;", "=f,f", false);
      return arith::MulFOp::create(b, loc, log2->getResult(0), constOf(types[0], M_LN2));
    }
  }
  return cloneOnScalars(b, op, operands, types);
}

LogicalResult KernelLowering::lowerScalar(Operation *op) {
  SmallVector<Value> operands;
  for (Value operand : op->getOperands()) {
    auto it = scalars.find(operand);
    if (it == scalars.end())
      return op->emitError("the GPU lowering cannot map this op's operands");
    operands.push_back(it->second);
  }
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(scalarType(type));
  Operation *made = scalarOp(op, operands, types);
  for (auto [old, result] : llvm::zip(op->getResults(), made->getResults()))
    scalars[old] = result;
  return success();
}

LogicalResult KernelLowering::lowerElementwise(Operation *op) {
  const LinearLayout *l = layouts.lookup(op->getResult(0));
  if (!l)
    return op->emitError("the GPU lowering found no layout for this tile");
  SmallVector<TileRegs> operands;
  SmallVector<Value> scalarOperands;
  for (Value operand : op->getOperands()) {
    if (isa<RankedTensorType>(operand.getType()))
      operands.push_back(operandIn(operand, *l));
    else
      operands.push_back(TileRegs{*l, SmallVector<Value>(l->numRegs(), scalars[operand]), {}});
  }
  SmallVector<Type> types;
  for (Type type : op->getResultTypes())
    types.push_back(scalarType(type));
  SmallVector<TileRegs> results(op->getNumResults(), TileRegs{*l, {}, {}});
  for (int64_t r = 0; r < l->numRegs(); ++r) {
    SmallVector<Value> regOperands;
    for (const TileRegs &t : operands)
      regOperands.push_back(t.regs[r]);
    Operation *made = scalarOp(op, regOperands, types);
    for (unsigned i = 0; i < made->getNumResults(); ++i)
      results[i].regs.push_back(made->getResult(i));
  }
  for (auto [old, regs] : llvm::zip(op->getResults(), results))
    tiles[old] = regs;
  return success();
}

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
  LogicalResult status = success();
  auto loop = scf::ForOp::create(
      b, loc, scalars[op.getLowerBound()], scalars[op.getUpperBound()], scalars[op.getStep()],
      inits, [&](OpBuilder &nested, Location, Value iv, ValueRange args) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(nested.getInsertionBlock(), nested.getInsertionPoint());
        scalars[op.getInductionVar()] = iv;
        bindFlattened(op.getRegionIterArgs(), args);
        Block &body = *op.getBody();
        for (Operation &inner : body.without_terminator())
          if (failed(lower(&inner))) {
            status = failure();
            break;
          }
        SmallVector<Value> yielded =
            succeeded(status) ? flatten(body.getTerminator()->getOperands(), carried)
                              : SmallVector<Value>(args);
        scf::YieldOp::create(b, loc, yielded);
      });
  bindFlattened(op.getResults(), loop.getResults());
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

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/// The PTX register class and width for a loaded or stored element.
static std::pair<const char *, unsigned> registerClass(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return {"l", 64};
  switch (type.getIntOrFloatBitWidth()) {
  case 16: return {"h", 16};
  case 32: return {"r", 32};
  case 64: return {"l", 64};
  default: return {nullptr, 0};
  }
}

Value KernelLowering::predicatedLoad(Value ptr, Value pred, Type type, Value other,
                                     Operation *op) {
  auto [cls, bits] = registerClass(type);
  if (!cls) {
    op->emitError("the GPU lowering loads 16-, 32- and 64-bit elements, not ") << type;
    return {};
  }
  Type bitsType = b.getIntegerType(bits);
  Value otherBits = other.getType() == bitsType
                        ? other
                        : Value(LLVM::BitcastOp::create(b, loc, bitsType, other));
  std::string asmText = "mov.b" + std::to_string(bits) + " $0, $3;\n\t@$2 ld.global.b" +
                        std::to_string(bits) + " $0, [$1];";
  std::string constraints = std::string("=") + cls + ",l,b," + cls;
  auto asmOp = inlineAsm(bitsType, ValueRange{ptr, pred, otherBits}, asmText, constraints,
                         /*sideEffects=*/true);
  Value loaded = asmOp.getResult(0);
  return type == bitsType ? loaded : Value(LLVM::BitcastOp::create(b, loc, type, loaded));
}

void KernelLowering::predicatedStore(Value ptr, Value value, Value pred) {
  auto [cls, bits] = registerClass(value.getType());
  Type bitsType = b.getIntegerType(bits);
  Value valueBits = value.getType() == bitsType
                        ? value
                        : Value(LLVM::BitcastOp::create(b, loc, bitsType, value));
  std::string asmText = "@$2 st.global.b" + std::to_string(bits) + " [$0], $1;";
  std::string constraints = std::string("l,") + cls + ",b";
  inlineAsm(TypeRange{}, ValueRange{ptr, valueBits, pred}, asmText, constraints,
            /*sideEffects=*/true);
}

/// Address and in-bounds predicate of one element of a block access.
static std::pair<Value, Value> blockElement(OpBuilder &b, Location loc, const Descriptor &d,
                                            ValueRange offsets, ArrayRef<Value> coords,
                                            Type ptrType) {
  Value inBounds, index;
  for (size_t dim = 0; dim < coords.size(); ++dim) {
    Value pos = arith::AddIOp::create(b, loc, offsets[dim], coords[dim]);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, pos, d.shape[dim]);
    inBounds = inBounds ? Value(arith::AndIOp::create(b, loc, inBounds, inside)) : inside;
    Value term = arith::MulIOp::create(
        b, loc, arith::ExtSIOp::create(b, loc, b.getI64Type(), pos), d.strides[dim]);
    index = index ? Value(arith::AddIOp::create(b, loc, index, term)) : term;
  }
  Value ptr = LLVM::GEPOp::create(b, loc, ptrType, d.elementType, d.base, ValueRange{index});
  return {ptr, inBounds};
}

/// How many consecutive registers of `layout` hold consecutive elements
/// along the last dimension (the low register bits step 1, 2, 4, ... there),
/// capped at 16 bytes; 1 when fewer than 4 bytes would be moved together.
static int64_t vectorWidth(const LinearLayout &layout, unsigned elementBits) {
  int64_t last = layout.rank() - 1, width = 1;
  for (const Coords &basis : layout.regs()) {
    Coords step(layout.rank(), 0);
    step[last] = width;
    if (basis != step || 2 * width * elementBits > 128)
      break;
    width *= 2;
  }
  return width * elementBits >= 32 ? width : 1;
}

Value KernelLowering::vectorAccessAllowed(const Descriptor &d, ArrayRef<Value> offsets,
                                          int64_t width) {
  size_t last = d.shape.size() - 1;
  unsigned bytes = d.elementType.getIntOrFloatBitWidth() / 8;
  auto isZero = [&](Value v) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, v,
                                 v.getType().isInteger(64) ? constI64(0) : constI32(0));
  };
  auto remainder = [&](Value v, int64_t by) {
    return arith::RemSIOp::create(
        b, loc, v, v.getType().isInteger(64) ? constI64(by) : constI32(by));
  };
  Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, d.strides[last],
                                   constI64(1));
  Value address = LLVM::PtrToIntOp::create(b, loc, i64(), d.base);
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(address, width * bytes)));
  for (size_t dim = 0; dim < last; ++dim)
    ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(d.strides[dim], width)));
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(d.shape[last], width)));
  ok = arith::AndIOp::create(b, loc, ok, isZero(remainder(offsets[last], width)));
  return ok;
}

void KernelLowering::requireAligned(const Descriptor &d, Value offset, int64_t width) {
  if (auto arg = dyn_cast<BlockArgument>(d.base))
    alignedArgs.insert(arg.getArgNumber());
  trapUnlessVectorOffset(offset, width);
}

void KernelLowering::trapUnlessVectorOffset(Value offset, int64_t width) {
  // With aligned tensors, a block offset along the last dimension that is not
  // a multiple of the vector width would read the wrong elements: stop the
  // kernel loudly instead (the block sizes of tilec's kernels never do this).
  Value misaligned = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::RemSIOp::create(b, loc, offset, constI32(width)), constI32(0));
  auto guard = scf::IfOp::create(b, loc, TypeRange{}, misaligned, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPoint(guard.getThenRegion().front().getTerminator());
  LLVM::Trap::create(b, loc);
}

SmallVector<Value> KernelLowering::loadVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                               const LinearLayout &l, int64_t width,
                                               Value padding) {
  Type element = d.elementType;
  unsigned bits = element.getIntOrFloatBitWidth();
  int64_t words = width * bits / 32, perWord = 32 / bits;
  Value padWord = packWord(SmallVector<Value>(perWord, padding));
  std::string text, constraints;
  for (int64_t w = 0; w < words; ++w) {
    text += "mov.b32 $" + std::to_string(w) + ", $" + std::to_string(words + 2) + ";\n\t";
    constraints += "=r,";
  }
  text += "@$" + std::to_string(words + 1) + " ld.global";
  text += words == 1 ? ".b32 $0" : ".v" + std::to_string(words) + ".b32 {";
  for (int64_t w = 0; words > 1 && w < words; ++w)
    text += (w ? ", $" : "$") + std::to_string(w);
  text += words == 1 ? "" : "}";
  text += ", [$" + std::to_string(words) + "];";
  constraints += "l,b,r";
  Type result = words == 1 ? Type(i32())
                           : LLVM::LLVMStructType::getLiteral(
                                 b.getContext(), SmallVector<Type>(words, i32()));
  SmallVector<Value> regs;
  for (int64_t first = 0; first < l.numRegs(); first += width) {
    auto [ptr, inBounds] = blockElement(b, loc, d, offsets, coords(l, first), ptrType(kGlobal));
    Value loaded = inlineAsm(result, ValueRange{ptr, inBounds, padWord}, text, constraints,
                             /*sideEffects=*/true)
                       .getResult(0);
    for (int64_t w = 0; w < words; ++w) {
      Value word = words == 1 ? loaded
                              : Value(LLVM::ExtractValueOp::create(b, loc, loaded,
                                                                   ArrayRef<int64_t>{w}));
      SmallVector<Value> elements = unpackWord(word, element);
      regs.append(elements.begin(), elements.end());
    }
  }
  return regs;
}

void KernelLowering::storeVectors(const Descriptor &d, ArrayRef<Value> offsets,
                                  const TileRegs &value, int64_t width) {
  unsigned bits = d.elementType.getIntOrFloatBitWidth();
  int64_t words = width * bits / 32, perWord = 32 / bits;
  // Operands: address, predicate, then the words.
  std::string text, constraints = "l,b";
  for (int64_t w = 0; w < words; ++w)
    constraints += ",r";
  if (words == 1) {
    text = "@$1 st.global.b32 [$0], $2;";
  } else {
    text = "@$1 st.global.v" + std::to_string(words) + ".b32 [$0], {";
    for (int64_t w = 0; w < words; ++w)
      text += (w ? ", $" : "$") + std::to_string(w + 2);
    text += "};";
  }
  for (int64_t first = 0; first < value.layout.numRegs(); first += width) {
    auto [ptr, inBounds] =
        blockElement(b, loc, d, offsets, coords(value.layout, first), ptrType(kGlobal));
    SmallVector<Value> operands = {ptr, inBounds};
    for (int64_t w = 0; w < words; ++w)
      operands.push_back(packWord(ArrayRef<Value>(value.regs).slice(first + w * perWord, perWord)));
    inlineAsm(TypeRange{}, operands, text, constraints, /*sideEffects=*/true);
  }
}

Value KernelLowering::packWord(ArrayRef<Value> elements) {
  if (elements.size() == 1)
    return elements[0].getType() == i32()
               ? elements[0]
               : Value(LLVM::BitcastOp::create(b, loc, i32(), elements[0]));
  Type vector = VectorType::get({static_cast<int64_t>(elements.size())}, elements[0].getType());
  Value v = LLVM::UndefOp::create(b, loc, vector);
  for (size_t i = 0; i < elements.size(); ++i)
    v = LLVM::InsertElementOp::create(b, loc, v, elements[i], constI32(i));
  return LLVM::BitcastOp::create(b, loc, i32(), v);
}

SmallVector<Value> KernelLowering::unpackWord(Value word, Type element) {
  unsigned count = 32 / element.getIntOrFloatBitWidth();
  if (count == 1)
    return {element == i32() ? word : Value(LLVM::BitcastOp::create(b, loc, element, word))};
  Type vector = VectorType::get({count}, element);
  Value v = LLVM::BitcastOp::create(b, loc, vector, word);
  SmallVector<Value> out;
  for (unsigned i = 0; i < count; ++i)
    out.push_back(LLVM::ExtractElementOp::create(b, loc, v, constI32(i)));
  return out;
}

LogicalResult KernelLowering::lowerLoadBlock(tile::LoadBlockOp op) {
  if (!descriptors.count(op.getDesc()))
    return op.emitError("the GPU lowering needs the descriptor made by tile.make_desc in the kernel");
  const Descriptor &d = descriptors[op.getDesc()];
  const LinearLayout &l = *layouts.lookup(op);
  SmallVector<Value> offsets;
  for (Value o : op.getOffsets())
    offsets.push_back(scalars[o]);
  Type element = d.elementType;
  if (!registerClass(element).first)
    return op.emitError("the GPU lowering loads 16-, 32- and 64-bit elements, not ") << element;
  Value padding =
      op.getPadding() == tile::PaddingOption::nan
          ? constOf(element, std::numeric_limits<double>::quiet_NaN())
          : constOf(element, 0.0);
  auto scalarLoads = [&]() {
    SmallVector<Value> regs;
    for (int64_t r = 0; r < l.numRegs(); ++r) {
      auto [ptr, inBounds] = blockElement(b, loc, d, offsets, coords(l, r), ptrType(kGlobal));
      regs.push_back(predicatedLoad(ptr, inBounds, element, padding, op));
    }
    return regs;
  };
  TileRegs out{l, {}, {}};
  int64_t width = vectorWidth(l, element.getIntOrFloatBitWidth());
  if (width == 1 || element.getIntOrFloatBitWidth() > 32) {
    out.regs = scalarLoads();
  } else if (assumeAligned) {
    requireAligned(d, offsets.back(), width);
    out.regs = loadVectors(d, offsets, l, width, padding);
  } else {
    // Vector accesses need the tensor contiguous and aligned along its last
    // dimension; that is known only at run time, so both paths exist and a
    // uniform branch picks one.
    Value vectorOk = vectorAccessAllowed(d, offsets, width);
    auto branch = scf::IfOp::create(b, loc, SmallVector<Type>(l.numRegs(), element), vectorOk,
                                    /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&branch.getThenRegion().front());
      scf::YieldOp::create(b, loc, loadVectors(d, offsets, l, width, padding));
      b.setInsertionPointToStart(&branch.getElseRegion().front());
      scf::YieldOp::create(b, loc, scalarLoads());
    }
    out.regs.assign(branch.getResults().begin(), branch.getResults().end());
  }
  tiles[op] = out;
  return success();
}

LogicalResult KernelLowering::lowerStoreBlock(tile::StoreBlockOp op) {
  if (!descriptors.count(op.getDesc()))
    return op.emitError("the GPU lowering needs the descriptor made by tile.make_desc in the kernel");
  const Descriptor &d = descriptors[op.getDesc()];
  const TileRegs &value = tiles[op.getValue()];
  if (!registerClass(d.elementType).first)
    return op.emitError("the GPU lowering stores 16-, 32- and 64-bit elements, not ")
           << d.elementType;
  SmallVector<Value> offsets;
  for (Value o : op.getOffsets())
    offsets.push_back(scalars[o]);
  TileRegs src = value.splat ? convert(value, layouts.defaultLayout(op.getValue().getType()),
                                       d.elementType)
                             : value;
  auto scalarStores = [&]() {
    for (int64_t r = 0; r < src.layout.numRegs(); ++r) {
      auto [ptr, inBounds] =
          blockElement(b, loc, d, offsets, coords(src.layout, r), ptrType(kGlobal));
      predicatedStore(ptr, src.regs[r], inBounds);
    }
  };
  unsigned bits = d.elementType.getIntOrFloatBitWidth();
  int64_t width = vectorWidth(src.layout, bits);
  if (width == 1 || bits > 32) {
    scalarStores();
    return success();
  }
  if (assumeAligned) {
    requireAligned(d, offsets.back(), width);
    storeVectors(d, offsets, src, width);
    return success();
  }
  Value vectorOk = vectorAccessAllowed(d, offsets, width);
  auto branch = scf::IfOp::create(b, loc, TypeRange{}, vectorOk, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(branch.getThenRegion().front().getTerminator());
  storeVectors(d, offsets, src, width);
  b.setInsertionPoint(branch.getElseRegion().front().getTerminator());
  scalarStores();
  return success();
}

LogicalResult KernelLowering::lowerLoad(tile::LoadOp op) {
  const LinearLayout &l = *layouts.lookup(op);
  TileRegs ptrs = operandIn(op.getPtr(), l);
  Type element = getElementTypeOrSelf(op.getType());
  Value other = op.getOther() ? scalars[op.getOther()] : constOf(element, 0.0);
  std::optional<TileRegs> mask;
  if (op.getMask())
    mask = operandIn(op.getMask(), l);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  TileRegs out{l, {}, {}};
  for (int64_t r = 0; r < l.numRegs(); ++r) {
    Value v = predicatedLoad(ptrs.regs[r], mask ? mask->regs[r] : always, element, other, op);
    if (!v)
      return failure();
    out.regs.push_back(v);
  }
  tiles[op] = out;
  return success();
}

LogicalResult KernelLowering::lowerStore(tile::StoreOp op) {
  const LinearLayout &l = *layouts.lookup(op.getPtr());
  TileRegs ptrs = tiles[op.getPtr()];
  TileRegs value = operandIn(op.getValue(), l);
  if (!registerClass(value.regs[0].getType()).first)
    return op.emitError("the GPU lowering stores 16-, 32- and 64-bit elements");
  std::optional<TileRegs> mask;
  if (op.getMask())
    mask = operandIn(op.getMask(), l);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  for (int64_t r = 0; r < l.numRegs(); ++r)
    predicatedStore(ptrs.regs[r], value.regs[r], mask ? mask->regs[r] : always);
  return success();
}

//===----------------------------------------------------------------------===//
// dot: mma.sync m16n8k16
//===----------------------------------------------------------------------===//

static int64_t log2Of(int64_t x) {
  int64_t bits = 0;
  while ((int64_t{1} << bits) < x)
    ++bits;
  return bits;
}

/// A B operand staged in shared memory: the tile stored once by the threads
/// that loaded it, read back one mma fragment at a time right before its mma.
struct StagedOperand {
  Value base;           ///< shared-memory address of element (0, 0)
  bool kContiguous;     ///< elements (k, n) and (k+1, n) are adjacent
  int64_t pitch;        ///< elements between rows of the fast dimension
};

/// Stores `tile` (K x N) in shared memory with its fast dimension following
/// its registers (so threads write whole vectors) and rows padded by 16 bytes
/// (so a warp reading one fragment column hits distinct banks).
StagedOperand KernelLowering::stage(const TileRegs &tile, Type element) {
  const LinearLayout &l = tile.layout;
  int64_t k = l.shape()[0], n = l.shape()[1];
  bool kContiguous = !l.regs().empty() && l.regs()[0][0] == 1 && l.regs()[0][1] == 0;
  int64_t rows = kContiguous ? n : k, fast = kContiguous ? k : n;
  int64_t pitch = fast + 16 / static_cast<int64_t>(element.getIntOrFloatBitWidth() / 8);
  unsigned bytes = element.getIntOrFloatBitWidth() / 8;
  sharedBytes = std::max(sharedBytes, rows * pitch * int64_t(bytes));
  Value base = LLVM::AddressOfOp::create(b, loc, ptrType(kShared), "tilec_smem");
  StagedOperand staged{base, kContiguous, pitch};
  barrier();
  int64_t width = std::max<int64_t>(1, vectorWidth(l, element.getIntOrFloatBitWidth()));
  if (!kContiguous && !(l.regs().size() && l.regs()[0] == Coords{0, 1}))
    width = 1;
  for (int64_t first = 0; first < l.numRegs(); first += width) {
    SmallVector<Value> c = coords(l, first);
    Value row = kContiguous ? c[1] : c[0], col = kContiguous ? c[0] : c[1];
    Value index = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constI32(pitch)), col);
    Value address = sharedAddress(index, element);
    if (width == 1) {
      LLVM::StoreOp::create(b, loc, tile.regs[first], address);
      continue;
    }
    Type vector = VectorType::get({width}, element);
    Value v = LLVM::UndefOp::create(b, loc, vector);
    for (int64_t i = 0; i < width; ++i)
      v = LLVM::InsertElementOp::create(b, loc, v, tile.regs[first + i], constI32(i));
    LLVM::StoreOp::create(b, loc, v, address, /*alignment=*/width * bytes);
  }
  barrier();
  return staged;
}

/// The two 32-bit registers of the B fragment (k16 x n8) for this lane, whose
/// first element is at (k, n).
/// The two 32-bit registers of the B fragment (k16 x n8) for this lane, whose
/// first element is at (k, n), with one ldmatrix.x2: lanes 0-15 point at the
/// sixteen 16-byte rows of the two 8x8 matrices, `.trans` when the staged
/// tile keeps n (not k) contiguous.
SmallVector<Value> KernelLowering::loadFragmentB(const StagedOperand &staged, Value k, Value n,
                                                 Type element) {
  // The fragment's origin: this lane holds (k0 + 2·(lane % 4), n0 + lane / 4).
  Value k0 = arith::SubIOp::create(
      b, loc, k, arith::MulIOp::create(b, loc, arith::AndIOp::create(b, loc, lane, constI32(3)),
                                       constI32(2)));
  Value n0 = arith::SubIOp::create(b, loc, n,
                                   arith::ShRUIOp::create(b, loc, lane, constI32(2)));
  Value rowInMatrix = arith::AndIOp::create(b, loc, lane, constI32(7));
  Value matrix = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, lane, constI32(3)), constI32(1));
  Value eight = constI32(8);
  Value row, col;
  if (staged.kContiguous) {
    // Rows are n; matrix 1 is 8 further along k.
    row = arith::AddIOp::create(b, loc, n0, rowInMatrix);
    col = arith::AddIOp::create(b, loc, k0, arith::MulIOp::create(b, loc, matrix, eight));
  } else {
    // Rows are k; matrix 1 is 8 rows further.
    row = arith::AddIOp::create(
        b, loc, k0,
        arith::AddIOp::create(b, loc, rowInMatrix, arith::MulIOp::create(b, loc, matrix, eight)));
    col = n0;
  }
  Value address = sharedAddress(
      arith::AddIOp::create(b, loc, arith::MulIOp::create(b, loc, row, constI32(staged.pitch)),
                            col),
      element);
  Value raw = LLVM::PtrToIntOp::create(b, loc, i64(), address);
  std::string text = std::string("ldmatrix.sync.aligned.m8n8.x2") +
                     (staged.kContiguous ? "" : ".trans") + ".shared.b16 {$0, $1}, [$2];";
  Type pair = LLVM::LLVMStructType::getLiteral(b.getContext(), {i32(), i32()});
  Value loaded = inlineAsm(pair, ValueRange{raw}, text, "=r,=r,l", /*sideEffects=*/true)
                     .getResult(0);
  return {LLVM::ExtractValueOp::create(b, loc, loaded, ArrayRef<int64_t>{0}),
          LLVM::ExtractValueOp::create(b, loc, loaded, ArrayRef<int64_t>{1})};
}

LogicalResult KernelLowering::lowerDot(tile::DotOp op) {
  Type element = op.getA().getType().getElementType();
  if (!element.isBF16() && !element.isF16())
    return op.emitError("the GPU lowering runs tile.dot on bf16 or f16 inputs; got ") << element;
  int64_t m = op.getType().getDimSize(0), n = op.getType().getDimSize(1);
  int64_t k = op.getA().getType().getDimSize(1);
  auto [wm, wn] = layouts.dotWarps(m, n);
  LinearLayout accLayout = layouts.dotAccumulator(m, n);
  LinearLayout bLayout = layouts.dotOperandB(m, n, k);
  TileRegs a = operandIn(op.getA(), layouts.dotOperandA(m, n, k));
  TileRegs acc = operandIn(op.getC(), accLayout);

  // B in registers when it is already there (or a splat); otherwise staged in
  // shared memory and read one fragment at a time.
  const TileRegs &bSource = tiles[op.getB()];
  std::optional<TileRegs> bRegs;
  std::optional<StagedOperand> staged;
  if (bSource.splat || bSource.layout == bLayout ||
      tilec::registerLocalMove(bSource.layout, bLayout, [](const Coords &c) { return c; }))
    bRegs = operandIn(op.getB(), bLayout);
  else
    staged = stage(bSource, element);

  std::string asmText = std::string("mma.sync.aligned.m16n8k16.row.col.f32.") +
                        (element.isBF16() ? "bf16.bf16" : "f16.f16") +
                        ".f32 {$0,$1,$2,$3}, {$4,$5,$6,$7}, {$8,$9}, {$10,$11,$12,$13};";
  Type f32 = b.getF32Type();
  Type result = LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});

  int64_t kTiles = k / 16, mTiles = m / (16 * wm), nTiles = n / (8 * wn);
  int64_t kBits = log2Of(kTiles), nBits = log2Of(nTiles);
  SmallVector<Value> regs = acc.regs;
  for (int64_t ki = 0; ki < kTiles; ++ki)
    for (int64_t ni = 0; ni < nTiles; ++ni) {
      int64_t bBase = ki << 2 | ni << (2 + kBits);
      SmallVector<Value> bWords;
      if (bRegs) {
        bWords = {packWord({bRegs->regs[bBase], bRegs->regs[bBase + 1]}),
                  packWord({bRegs->regs[bBase + 2], bRegs->regs[bBase + 3]})};
      } else {
        SmallVector<Value> first = coords(bLayout, bBase);
        bWords = loadFragmentB(*staged, first[0], first[1], element);
      }
      for (int64_t mi = 0; mi < mTiles; ++mi) {
        int64_t aBase = ki << 3 | mi << (3 + kBits);
        int64_t cBase = ni << 2 | mi << (2 + nBits);
        SmallVector<Value> operands;
        for (int64_t i = 0; i < 8; i += 2)
          operands.push_back(packWord({a.regs[aBase + i], a.regs[aBase + i + 1]}));
        operands.append(bWords.begin(), bWords.end());
        for (int64_t i = 0; i < 4; ++i)
          operands.push_back(regs[cBase + i]);
        auto mma = inlineAsm(result, operands, asmText, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3",
                             /*sideEffects=*/false);
        for (int64_t i = 0; i < 4; ++i)
          regs[cBase + i] =
              LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), ArrayRef<int64_t>{i});
      }
    }
  tiles[op] = TileRegs{accLayout, regs, {}};
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions: registers, then shuffles across lanes, then shared memory
// across warps.
//===----------------------------------------------------------------------===//

Value KernelLowering::combine(tile::ReduceKind kind, Value a, Value c) {
  bool isFloat = isa<FloatType>(a.getType());
  switch (kind) {
  case tile::ReduceKind::sum:
    return isFloat ? Value(arith::AddFOp::create(b, loc, a, c))
                   : Value(arith::AddIOp::create(b, loc, a, c));
  case tile::ReduceKind::max:
    return isFloat ? Value(arith::MaximumFOp::create(b, loc, a, c))
                   : Value(arith::MaxSIOp::create(b, loc, a, c));
  case tile::ReduceKind::min:
    return isFloat ? Value(arith::MinimumFOp::create(b, loc, a, c))
                   : Value(arith::MinSIOp::create(b, loc, a, c));
  }
  return a;
}

static bool onlyAlong(const Coords &basis, int64_t axis) {
  for (int64_t d = 0; d < static_cast<int64_t>(basis.size()); ++d)
    if (d != axis && basis[d] != 0)
      return false;
  return basis[axis] != 0;
}

static bool touches(const Coords &basis, int64_t axis) { return basis[axis] != 0; }

LogicalResult KernelLowering::lowerReduce(tile::ReduceOp op) {
  TileRegs src = tiles[op.getSrc()];
  const LinearLayout &l = src.layout;
  int64_t axis = op.getAxis();
  LinearLayout sliced = l.slice(axis);
  tile::ReduceKind kind = op.getKind();
  Type element = op.getSrc().getType().getElementType();

  // Registers: combine over the bits that walk along the axis.
  std::vector<int64_t> axisBits, keptBits;
  for (size_t bit = 0; bit < l.regs().size(); ++bit) {
    const Coords &basis = l.regs()[bit];
    if (onlyAlong(basis, axis))
      axisBits.push_back(bit);
    else if (touches(basis, axis))
      return op.emitError("the GPU lowering cannot reduce this layout (mixed register bases)");
    else if (llvm::any_of(basis, [](int64_t x) { return x != 0; }))
      keptBits.push_back(bit);
  }
  SmallVector<Value> values;
  for (int64_t j = 0; j < (int64_t{1} << keptBits.size()); ++j) {
    int64_t base = 0;
    for (size_t i = 0; i < keptBits.size(); ++i)
      if (j >> i & 1)
        base |= int64_t{1} << keptBits[i];
    Value acc;
    for (int64_t c = 0; c < (int64_t{1} << axisBits.size()); ++c) {
      int64_t reg = base;
      for (size_t i = 0; i < axisBits.size(); ++i)
        if (c >> i & 1)
          reg |= int64_t{1} << axisBits[i];
      acc = acc ? combine(kind, acc, src.regs[reg]) : src.regs[reg];
    }
    values.push_back(acc);
  }

  // Lanes: butterfly shuffles over the lane bits along the axis.
  for (size_t bit = 0; bit < l.lanes().size(); ++bit) {
    const Coords &basis = l.lanes()[bit];
    if (!touches(basis, axis))
      continue;
    if (!onlyAlong(basis, axis))
      return op.emitError("the GPU lowering cannot reduce this layout (mixed lane bases)");
    if (element.getIntOrFloatBitWidth() != 32)
      return op.emitError("the GPU lowering shuffles 32-bit values only, got ") << element;
    for (Value &v : values) {
      Value shuffled = NVVM::ShflOp::create(b, loc, element, constI32(-1), v,
                                            constI32(int64_t{1} << bit), constI32(31),
                                            NVVM::ShflKind::bfly, UnitAttr());
      v = combine(kind, v, shuffled);
    }
  }

  // Warps: partial results meet in shared memory.
  std::vector<int64_t> warpAxisBits;
  for (size_t bit = 0; bit < l.warps().size(); ++bit) {
    const Coords &basis = l.warps()[bit];
    if (!touches(basis, axis))
      continue;
    if (!onlyAlong(basis, axis))
      return op.emitError("the GPU lowering cannot reduce this layout (mixed warp bases)");
    warpAxisBits.push_back(bit);
  }
  if (!warpAxisBits.empty()) {
    int64_t groups = int64_t{1} << warpAxisBits.size();
    int64_t outElems = std::max<int64_t>(1, sliced.numElements());
    unsigned bytes = element.getIntOrFloatBitWidth() / 8;
    sharedBytes = std::max(sharedBytes, groups * outElems * int64_t(bytes));
    Value group = constI32(0);
    for (size_t i = 0; i < warpAxisBits.size(); ++i) {
      Value bitSet = arith::AndIOp::create(
          b, loc, arith::ShRUIOp::create(b, loc, warp, constI32(warpAxisBits[i])), constI32(1));
      group = arith::OrIOp::create(b, loc, group,
                                   arith::ShLIOp::create(b, loc, bitSet, constI32(i)));
    }
    barrier();
    SmallVector<Value> outIndex;
    for (size_t j = 0; j < values.size(); ++j) {
      Value index = sliced.rank() ? linear(coords(sliced, j), sliced.shape()) : constI32(0);
      outIndex.push_back(index);
      Value slot = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, group, constI32(outElems)), index);
      LLVM::StoreOp::create(b, loc, values[j], sharedAddress(slot, element));
    }
    barrier();
    for (size_t j = 0; j < values.size(); ++j) {
      Value acc;
      for (int64_t g = 0; g < groups; ++g) {
        Value slot = arith::AddIOp::create(b, loc, constI32(g * outElems), outIndex[j]);
        Value v = LLVM::LoadOp::create(b, loc, element, sharedAddress(slot, element));
        acc = acc ? combine(kind, acc, v) : v;
      }
      values[j] = acc;
    }
  }

  if (sliced.rank() == 0) {
    scalars[op] = values[0];
    return success();
  }
  tiles[op] = TileRegs{sliced, values, {}};
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct TileToLLVM : tilec::impl::TileToLLVMBase<TileToLLVM> {
  using TileToLLVMBase::TileToLLVMBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> kernels(module.getOps<func::FuncOp>());
    if (numWarps < 1 || numWarps > 32 || (numWarps & (numWarps - 1))) {
      module.emitError("num-warps must be a power of two in [1, 32], got ") << numWarps;
      return signalPassFailure();
    }
    OpBuilder b(module.getContext());
    b.setInsertionPointToStart(module.getBody());
    if (!module.lookupSymbol("tilec_smem"))
      LLVM::GlobalOp::create(b, module.getLoc(),
                             LLVM::LLVMArrayType::get(b.getI8Type(), 0), /*isConstant=*/false,
                             LLVM::Linkage::External, "tilec_smem", Attribute(),
                             /*alignment=*/16, /*addrSpace=*/kShared);
    for (func::FuncOp kernel : kernels) {
      tilec::LayoutAssignment layouts(kernel, numWarps);
      if (failed(layouts.run()))
        return signalPassFailure();
      KernelLowering lowering(kernel, layouts, assumeAligned);
      if (failed(lowering.run()))
        return signalPassFailure();
      kernel.erase();
    }
  }
};

} // namespace
