//===- TileToLLVMWgmma.cpp - tile.dot as wgmma on sm_90a -------------------===//
//
// On sm_90a a dot whose B operand is streamed through shared memory runs as
// warpgroup MMAs: the four warps of the program issue wgmma.mma_async
// m64nNk16 together, reading B (and A, when A is resident in shared memory)
// straight from shared memory through matrix descriptors, so no operand
// fragment passes through registers. The accumulator layout is the one
// mma.sync uses already (warp w holds rows 16w..16w+15 of each 64-row half,
// the four f32 of an n8 tile in consecutive registers), and an A operand in
// registers has mma.sync's A fragment layout: the rest of the kernel does not
// change.
//
// Shared memory read by wgmma is in the 128-byte swizzle layout: the tile is
// cut into column blocks of 64 elements; a block holds `rows` rows of 128
// bytes, and 16-byte chunk j of row r sits at chunk j ^ (r % 8). cp.async
// writes it (TileToLLVMPipeline.cpp); each thread fences its landed copies
// into the async proxy before the barrier that publishes them.
//
// One dot:
//   (accumulator and A registers pinned: computed before the fence)
//   wgmma.fence
//   wgmma.mma_async per 64-row half and k16 step, chained on the accumulator
//   wgmma.commit_group
// and where the result is first read (or at the end of the loop body):
//   wgmma.wait_group N (N: groups committed since, which may keep running)
//   (accumulators pinned: read only after the wait)
// so the math between a dot and the first use of its result overlaps it,
// and every slot read in an iteration is free again at the next one.
//
//===----------------------------------------------------------------------===//

#include "KernelLowering.h"

#include "mlir/IR/Matchers.h"

namespace tilec::lowering {

bool KernelLowering::wgmmaShape(tile::DotOp dot) {
  if (!wgmma || layouts.warps() != 4)
    return false;
  Type element = dot.getA().getType().getElementType();
  int64_t m = dot.getType().getDimSize(0), n = dot.getType().getDimSize(1);
  int64_t k = dot.getA().getType().getDimSize(1);
  return (element.isBF16() || element.isF16()) && m % 64 == 0 && n % 8 == 0 && n <= 256 &&
         k % 16 == 0 && layouts.dotWarps(m, n) == std::make_pair<int64_t, int64_t>(4, 1);
}

bool KernelLowering::wgmmaReady(tile::DotOp dot) {
  auto loop = dot->getParentOfType<scf::ForOp>();
  if (!wgmmaShape(dot) || !loop)
    return false;
  // A loop streams its blocks unless an enclosing loop streams (lowerFor).
  for (auto outer = loop->getParentOfType<scf::ForOp>(); outer;
       outer = outer->getParentOfType<scf::ForOp>())
    if (!findStreams(outer).empty())
      return false;
  for (const Stream &s : findStreams(loop))
    if (s.reads(dot))
      return s.swizzled;
  return false;
}

int64_t KernelLowering::countWgmmaReaders(Value value) {
  int64_t readers = 0;
  for (OpOperand &use : value.getUses())
    if (auto dot = dyn_cast<tile::DotOp>(use.getOwner()))
      readers += use.getOperandNumber() == 0 && wgmmaReady(dot);
  return readers;
}

void KernelLowering::fenceProxyAsync() {
  inlineAsm(TypeRange{}, ValueRange{}, "fence.proxy.async.shared::cta;", "",
            /*sideEffects=*/true);
}

SmallVector<Value> KernelLowering::pinRegisters(ArrayRef<Value> values) {
  // One empty asm per 32 values (every value tied to a result).
  SmallVector<Value> pinned;
  for (size_t first = 0; first < values.size(); first += 32) {
    ArrayRef<Value> group = values.slice(first, std::min<size_t>(32, values.size() - first));
    SmallVector<Type> types;
    std::string outputs, inputs;
    for (size_t i = 0; i < group.size(); ++i) {
      types.push_back(group[i].getType());
      outputs += group[i].getType().isF32() ? "=f," : "=r,";
      inputs += (i ? "," : "") + std::to_string(i);
    }
    Type result = LLVM::LLVMStructType::getLiteral(b.getContext(), types);
    Value asmResult = inlineAsm(result, group, "", outputs + inputs, /*sideEffects=*/true)
                          .getResult(0);
    for (size_t i = 0; i < group.size(); ++i)
      pinned.push_back(
          LLVM::ExtractValueOp::create(b, loc, asmResult, ArrayRef<int64_t>{int64_t(i)}));
  }
  return pinned;
}

Value KernelLowering::matrixDescriptor(Value base, int64_t leadingBytes, int64_t strideBytes) {
  // Bits 0-13: address >> 4 (shared addresses are below 2^18); 16-29: the
  // leading byte offset >> 4; 32-45: the stride byte offset >> 4; 62-63:
  // swizzle mode (1 = 128 bytes).
  Value address = arith::ExtUIOp::create(b, loc, i64(),
                                         LLVM::PtrToIntOp::create(b, loc, i32(), base));
  Value field = arith::ShRUIOp::create(
      b, loc, arith::AndIOp::create(b, loc, address, constI64(0x3FFFF)), constI64(4));
  int64_t constant = ((leadingBytes >> 4) << 16) | ((strideBytes >> 4) << 32) |
                     (int64_t{1} << 62);
  return arith::OrIOp::create(b, loc, field, constI64(constant));
}

/// Bytes from a swizzled tile's start to the 16-byte chunk holding element
/// (row, col), for a chunk whose row is a multiple of 8 (swizzle unchanged).
static int64_t swizzledOffset(int64_t rows, int64_t row, int64_t col, int64_t elementBytes) {
  int64_t perBlock = 128 / elementBytes;
  return (col / perBlock) * rows * 128 + row * 128 + (col % perBlock) * elementBytes;
}

SmallVector<Value> KernelLowering::issueWgmma(StringRef instruction, int64_t accCount,
                                              ArrayRef<Value> acc, const WgmmaOperand &a,
                                              const WgmmaOperand &bOperand, bool transposeB) {
  // Operands: the accumulators ($0..), A (a descriptor or four words), the B
  // descriptor, scale-d, then the accumulators again (tied) unless the sum
  // starts at zero (scale-d = 0). A step's descriptors are its tile's plus an
  // immediate added inside the asm, so only the tiles' descriptors stay live
  // (LLVM would hoist every loop-invariant step descriptor of A out of the
  // loop and keep them all in registers).
  SmallVector<Value> operands;
  std::string constraints, accList, aText, prelude;
  for (int64_t i = 0; i < accCount; ++i) {
    accList += (i ? ", $" : "$") + std::to_string(i);
    constraints += "=f,";
  }
  int64_t next = accCount;
  auto addDescriptor = [&](const WgmmaOperand &operand, StringRef name) {
    operands.push_back(operand.descriptor);
    constraints += "l,";
    prelude += "add.s64 " + name.str() + ", $" + std::to_string(next++) + ", " +
               std::to_string(operand.offset >> 4) + ";\n";
  };
  if (a.descriptor) {
    addDescriptor(a, "da");
    aText = "da";
  } else {
    for (Value word : a.words) {
      operands.push_back(word);
      aText += (aText.empty() ? "{$" : ", $") + std::to_string(next++);
      constraints += "r,";
    }
    aText += "}";
  }
  addDescriptor(bOperand, "db");
  operands.push_back(constI32(acc.empty() ? 0 : 1));
  constraints += "r";
  prelude += "setp.ne.b32 p, $" + std::to_string(next++) + ", 0;\n";
  // imm-scale-a, imm-scale-b, then the transposes (none for A in registers).
  std::string text = "{\n.reg .pred p;\n.reg .b64 da, db;\n" + prelude + instruction.str() +
                     " {" + accList + "}, " + aText + ", db, p, 1, 1" +
                     (a.descriptor ? ", 0" : "") + (transposeB ? ", 1;\n}" : ", 0;\n}");
  for (int64_t i = 0; i < static_cast<int64_t>(acc.size()); ++i) {
    operands.push_back(acc[i]);
    constraints += "," + std::to_string(i);
  }
  Type result = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(accCount, b.getF32Type()));
  Value mma = inlineAsm(result, operands, text, constraints, /*sideEffects=*/true).getResult(0);
  SmallVector<Value> sums;
  for (int64_t i = 0; i < accCount; ++i)
    sums.push_back(LLVM::ExtractValueOp::create(b, loc, mma, ArrayRef<int64_t>{i}));
  return sums;
}

LogicalResult KernelLowering::lowerDotWgmma(tile::DotOp op, const StagedOperand &bSmem) {
  Type element = op.getA().getType().getElementType();
  int64_t m = op.getType().getDimSize(0), n = op.getType().getDimSize(1);
  int64_t k = op.getA().getType().getDimSize(1);
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  int64_t halves = m / 64, kSteps = k / 16, accPerHalf = n / 2;
  LinearLayout accLayout = layouts.dotAccumulator(m, n);
  LinearLayout aLayout = layouts.dotOperandA(m, n, k);

  // A: a swizzled resident copy, or registers in mma.sync's A layout.
  auto residentA = resident.find(op.getA());
  std::optional<StagedOperand> aSmem;
  SmallVector<Value> aWords;
  if (residentA != resident.end()) {
    if (!residentA->second.swizzled)
      return op.emitError("internal: wgmma dot with an A operand in padded shared memory");
    aSmem = residentA->second;
  } else {
    TileRegs a = operandIn(op.getA(), aLayout);
    for (int64_t i = 0; i < a.layout.numRegs(); i += 2)
      aWords.push_back(packWord({a.regs[i], a.regs[i + 1]}));
    aWords = pinRegisters(aWords);
  }

  // The accumulator: nothing to read when it starts at zero (scale-d = 0).
  const TileRegs &c = tiles[op.getC()];
  bool fromZero = c.splat && matchPattern(c.splat, m_AnyZeroFloat());
  SmallVector<Value> acc;
  if (!fromZero)
    acc = pinRegisters(operandIn(op.getC(), accLayout).regs);

  inlineAsm(TypeRange{}, ValueRange{}, "wgmma.fence.sync.aligned;", "", /*sideEffects=*/true);
  // B: K-major (k contiguous: K of Q·Kᵀ) or MN-major, transposed (V of P·V).
  bool bKMajor = bSmem.kContiguous;
  Value bDesc = bKMajor ? matrixDescriptor(bSmem.base, 16, 1024)
                        : matrixDescriptor(bSmem.base, bSmem.rows * 128, 1024);
  Value aDesc = aSmem ? matrixDescriptor(aSmem->base, 16, 1024) : Value();
  std::string instruction = "wgmma.mma_async.sync.aligned.m64n" + std::to_string(n) +
                            "k16.f32." + (element.isBF16() ? "bf16.bf16" : "f16.f16");
  int64_t kBits = llvm::Log2_64(kSteps);
  SmallVector<Value> out;
  for (int64_t half = 0; half < halves; ++half) {
    SmallVector<Value> chain;
    if (!acc.empty())
      chain.assign(acc.begin() + half * accPerHalf, acc.begin() + (half + 1) * accPerHalf);
    for (int64_t step = 0; step < kSteps; ++step) {
      WgmmaOperand a;
      if (aSmem) {
        a.descriptor = aDesc;
        a.offset = swizzledOffset(aSmem->rows, 64 * half, 16 * step, elementBytes);
      } else {
        int64_t first = (step << 2) | (half << (2 + kBits));
        a.words.assign(aWords.begin() + first, aWords.begin() + first + 4);
      }
      WgmmaOperand bOperand;
      bOperand.descriptor = bDesc;
      bOperand.offset = bKMajor ? swizzledOffset(bSmem.rows, 0, 16 * step, elementBytes)
                                : 16 * step * 128;
      chain = issueWgmma(instruction, accPerHalf, chain, a, bOperand, /*transposeB=*/!bKMajor);
    }
    out.append(chain.begin(), chain.end());
  }
  inlineAsm(TypeRange{}, ValueRange{}, "wgmma.commit_group.sync.aligned;", "",
            /*sideEffects=*/true);
  // Waited for at the first read of the result (lower()), so the math in
  // between overlaps the MMAs.
  tiles[op] = TileRegs{accLayout, out, {}};
  pendingWgmma.push_back({op.getResult(), ++wgmmaGroups});
  return success();
}

void KernelLowering::waitForWgmma(Value value) {
  auto it = llvm::find_if(pendingWgmma, [&](const PendingWgmma &p) { return p.result == value; });
  if (it == pendingWgmma.end())
    return;
  // Groups complete in order: at most (newer groups) may still run.
  int64_t newer = wgmmaGroups - it->group;
  inlineAsm(TypeRange{}, ValueRange{}, "wgmma.wait_group.sync.aligned " + std::to_string(newer) + ";",
            "", /*sideEffects=*/true);
  for (auto done = pendingWgmma.begin(); done != std::next(it); ++done) {
    TileRegs &t = tiles[done->result];
    t.regs = pinRegisters(t.regs);
  }
  pendingWgmma.erase(pendingWgmma.begin(), std::next(it));
}

void KernelLowering::waitForAllWgmma() {
  if (!pendingWgmma.empty())
    waitForWgmma(pendingWgmma.back().result);
}

} // namespace tilec::lowering
