//===- Common.h - helpers shared by the tilegpu-to-NVVM patterns (private) -===//

#ifndef TILEC_LIB_CONVERSION_TILEGPUTONVVM_COMMON_H
#define TILEC_LIB_CONVERSION_TILEGPUTONVVM_COMMON_H

#include "tilec/Conversion/TileGPUToNVVM.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"
#include "tilec/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace tilec::tilegpu::nvvm {

using namespace mlir;

/// The kernel's dynamic shared memory: an external `addr_space = 3` array
/// the launch sizes (as `tile-to-llvm` declares it).
inline constexpr llvm::StringLiteral kSharedMemorySymbol = "tilec_smem";
inline constexpr unsigned kSharedSpace = 3;
inline constexpr unsigned kGlobalSpace = 1;

/// The global i32 a kernel's `tilegpu.claim_tile` counts on.
inline std::string tileCounterName(StringRef kernel) { return (kernel + kTileCounterSuffix).str(); }

inline Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return LLVM::ConstantOp::create(b, loc, b.getI32Type(), b.getI32IntegerAttr(value));
}

inline Type sharedPointer(MLIRContext *context) {
  return LLVM::LLVMPointerType::get(context, kSharedSpace);
}

/// `base` + `bytes` (an i32 value) as a shared pointer.
inline Value byteOffset(OpBuilder &b, Location loc, Value base, Value bytes) {
  return LLVM::GEPOp::create(b, loc, sharedPointer(b.getContext()), b.getI8Type(), base,
                             ValueRange{bytes});
}

/// Two 16-bit elements as one mma.sync operand register: `i32` for bf16,
/// `vector<2xf16>` for f16 (what nvvm.mma.sync takes).
inline Value operandWord(OpBuilder &b, Location loc, Value low, Value high) {
  Type element = low.getType();
  auto pair = VectorType::get({2}, element);
  Value word = LLVM::UndefOp::create(b, loc, pair);
  word = LLVM::InsertElementOp::create(b, loc, word, low, constI32(b, loc, 0));
  word = LLVM::InsertElementOp::create(b, loc, word, high, constI32(b, loc, 1));
  return element.isBF16() ? Value(LLVM::BitcastOp::create(b, loc, b.getI32Type(), word)) : word;
}

/// Two 16-bit elements as one `i32` (what wgmma's A registers and stmatrix
/// take, f16 too).
inline Value i32Word(OpBuilder &b, Location loc, Value low, Value high) {
  Value word = operandWord(b, loc, low, high);
  return word.getType().isInteger(32)
             ? word
             : Value(LLVM::BitcastOp::create(b, loc, b.getI32Type(), word));
}

/// The address `offset` bytes into the kernel's dynamic shared memory.
inline Value sharedAddress(OpBuilder &b, Location loc, int64_t offset) {
  Value base = LLVM::AddressOfOp::create(b, loc, sharedPointer(b.getContext()),
                                         kSharedMemorySymbol);
  return offset ? byteOffset(b, loc, base, constI32(b, loc, offset)) : base;
}

/// The address of mbarrier `index` of the array at `barriers`.
inline Value barrierAddress(OpBuilder &b, Location loc, Value barriers, Value index) {
  Value bytes = LLVM::MulOp::create(b, loc, index, constI32(b, loc, 8));
  return byteOffset(b, loc, barriers, bytes);
}

/// Set by the warp_specialize lowering on each role's region holder: the
/// role's first thread. Inside a role, thread and warp indices (and so the
/// layouts of its tiles) count from there.
inline constexpr llvm::StringLiteral kRoleFirstThread = "tilegpu.role_first_thread";

/// The members of an LLVM struct of one thread's registers.
inline SmallVector<Value> unpackRegisters(OpBuilder &b, Location loc, Value registers) {
  SmallVector<Value> values;
  auto type = cast<LLVM::LLVMStructType>(registers.getType());
  for (int64_t i = 0, e = type.getBody().size(); i < e; ++i)
    values.push_back(LLVM::ExtractValueOp::create(b, loc, registers, i));
  return values;
}

/// `values` as an LLVM struct of `type`.
inline Value packRegisters(OpBuilder &b, Location loc, Type type, ArrayRef<Value> values) {
  Value registers = LLVM::UndefOp::create(b, loc, type);
  for (auto [i, value] : llvm::enumerate(values))
    registers = LLVM::InsertValueOp::create(b, loc, registers, value, int64_t(i));
  return registers;
}

/// A struct of `type` whose register i is register `sources[i]` of `registers`.
inline Value pickRegisters(OpBuilder &b, Location loc, Type type, Value registers,
                           ArrayRef<int64_t> sources) {
  bool same = registers.getType() == type;
  for (auto [i, source] : llvm::enumerate(sources))
    same = same && source == static_cast<int64_t>(i);
  if (same)
    return registers; // every register where it was
  SmallVector<Value> picked;
  for (int64_t source : sources)
    picked.push_back(LLVM::ExtractValueOp::create(b, loc, registers, source));
  return packRegisters(b, loc, type, picked);
}

/// Inline PTX with side effects (where no NVVM op says it) returning
/// `types` (none, or a struct for several outputs).
inline LLVM::InlineAsmOp sideEffectAsmOp(OpBuilder &b, Location loc, TypeRange types,
                                         ValueRange operands, StringRef text,
                                         StringRef constraints) {
  return LLVM::InlineAsmOp::create(b, loc, types, operands, b.getStringAttr(text),
                                   b.getStringAttr(constraints), b.getUnitAttr(), UnitAttr(),
                                   LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(), ArrayAttr());
}

/// sideEffectAsmOp's one result, of `type`.
inline Value sideEffectAsm(OpBuilder &b, Location loc, Type type, ValueRange operands,
                           StringRef text, StringRef constraints) {
  return sideEffectAsmOp(b, loc, type, operands, text, constraints).getResult(0);
}

/// Set next to `kRoleFirstThread`: how many threads run the role.
inline constexpr llvm::StringLiteral kRoleThreads = "tilegpu.role_threads";

/// How many threads run `op`: its warp role's, else the kernel's
/// `nvvm.reqntid`; nullopt when neither says.
inline std::optional<int64_t> threadCount(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (auto threads = parent->getAttrOfType<IntegerAttr>(kRoleThreads))
      return threads.getInt();
    if (auto block = parent->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid")) {
      int64_t count = 1;
      for (int32_t d : block.asArrayRef())
        count *= d;
      return count;
    }
  }
  return std::nullopt;
}

/// Set next to `kRoleFirstThread`: the role's named barrier (role index + 1,
/// as tilegpu::createGroupBarrier numbers them).
inline constexpr llvm::StringLiteral kRoleBarrier = "tilegpu.role_barrier";

/// The barrier of every thread that runs `op` and how many they are: its
/// warp role's named barrier, else barrier 0 and the kernel's
/// `nvvm.reqntid`; nullopt when neither says.
inline std::optional<std::pair<int64_t, int64_t>> groupBarrier(Operation *op) {
  std::optional<int64_t> threads = threadCount(op);
  if (!threads)
    return std::nullopt;
  for (Operation *parent = op->getParentOp(); parent; parent = parent->getParentOp())
    if (auto id = parent->getAttrOfType<IntegerAttr>(kRoleBarrier))
      return std::make_pair(id.getInt(), *threads);
  return std::make_pair(int64_t{0}, *threads);
}

/// This thread's index in the block, or in its role inside a warp role.
/// With `own` it comes from a read of %tid.x that LLVM neither merges with
/// other reads nor moves (inline PTX with side effects): what is computed
/// from it stays where it is built.
inline Value threadIndex(OpBuilder &b, Location loc, bool own = false) {
  Value tid = own ? sideEffectAsm(b, loc, b.getI32Type(), {}, "mov.u32 $0, %tid.x;", "=r")
                  : NVVM::ThreadIdXOp::create(b, loc, b.getI32Type()).getResult();
  Block *block = b.getInsertionBlock();
  for (Operation *op = block ? block->getParentOp() : nullptr; op; op = op->getParentOp())
    if (auto first = op->getAttrOfType<IntegerAttr>(kRoleFirstThread))
      return first.getInt() ? LLVM::SubOp::create(b, loc, tid, constI32(b, loc, first.getInt()))
                            : tid;
  return tid;
}

/// `v` (the same in every lane of a warp, e.g. the warpgroup index) read
/// from lane 0 by a shuffle: ptxas then knows it is warp-uniform and keeps
/// what is computed from it (wgmma descriptors) in uniform registers, as
/// CUTLASS's canonical_warp_group_idx does. Without it a descriptor that
/// lives across a loop sat in vector registers, moved into uniform ones
/// (R2UR) before every wgmma.
inline Value warpUniform(OpBuilder &b, Location loc, Value v) {
  return NVVM::ShflOp::create(b, loc, v.getType(), constI32(b, loc, -1), v, constI32(b, loc, 0),
                              constI32(b, loc, 31), NVVM::ShflKind::idx, UnitAttr());
}

/// The coordinates of this thread's registers of a distributed tile: each
/// register's are its register bits' part XOR this thread's lane and warp
/// bits' part (computed once, as i32 values).
class TileCoordinates {
public:
  TileCoordinates(OpBuilder &b, Location loc, const tilec::LinearLayout &layout,
                  bool ownThreadIndex = false)
      : b(b), loc(loc), layout(layout) {
    Value tid = threadIndex(b, loc, ownThreadIndex);
    Value lane = LLVM::AndOp::create(b, loc, tid, constI32(b, loc, 31));
    Value warp = LLVM::AndOp::create(b, loc, LLVM::LShrOp::create(b, loc, tid, constI32(b, loc, 5)),
                                     constI32(b, loc, layout.numWarps() - 1));
    for (int64_t d = 0; d < layout.rank(); ++d)
      threadPart.push_back(constI32(b, loc, 0));
    addBits(lane, layout.lanes());
    addBits(warp, layout.warps());
  }

  /// Register `reg`'s coordinates, outermost dimension first.
  SmallVector<Value> of(int64_t reg) {
    tilec::Coords fixed = layout.regPart(reg);
    SmallVector<Value> coords;
    for (int64_t d = 0; d < layout.rank(); ++d)
      coords.push_back(LLVM::XOrOp::create(b, loc, threadPart[d], constI32(b, loc, fixed[d])));
    return coords;
  }

private:
  void addBits(Value index, const std::vector<tilec::Coords> &bases) {
    for (auto [bit, basis] : llvm::enumerate(bases)) {
      Value set = LLVM::AndOp::create(
          b, loc, LLVM::LShrOp::create(b, loc, index, constI32(b, loc, bit)), constI32(b, loc, 1));
      for (int64_t d = 0; d < layout.rank(); ++d)
        if (basis[d])
          threadPart[d] = LLVM::XOrOp::create(
              b, loc, threadPart[d], LLVM::MulOp::create(b, loc, set, constI32(b, loc, basis[d])));
    }
  }

  OpBuilder &b;
  Location loc;
  tilec::LinearLayout layout;
  SmallVector<Value> threadPart;
};

} // namespace tilec::tilegpu::nvvm

#endif // TILEC_LIB_CONVERSION_TILEGPUTONVVM_COMMON_H
