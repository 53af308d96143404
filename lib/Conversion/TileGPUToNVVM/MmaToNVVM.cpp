//===- MmaToNVVM.cpp - matrix multiplies and their waits ------------------===//
//
// mma.sync and wgmma.mma_async are NVVM ops. Inline assembly used here (no
// NVVM op says it; docs/tilegpu.md lists every case): wgmma.mma_async with
// A in registers (NVVM's op takes A by descriptor only), and the empty asm
// with side effects that pins accumulators after `wgmma.wait_group`, so
// that LLVM cannot move their reads above the wait, and the never-taken
// stores that keep a wait's `after` values computed above it.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include "mlir/IR/Matchers.h"

#include <map>
#include <set>

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;

namespace {

static Type floatStruct(MLIRContext *context, int64_t count) {
  return LLVM::LLVMStructType::getLiteral(context,
                                          SmallVector<Type>(count, Float32Type::get(context)));
}

/// Which register of a 2-D layout holds the element at given coordinates
/// for lane 0 of warp 0 (the register bits' part of the coordinates). In an
/// mma layout every lane's fragment is lane 0's moved by the lane bits, so
/// this finds the registers of any fragment.
class RegisterAt {
public:
  explicit RegisterAt(const tilec::LinearLayout &layout) {
    for (int64_t r = 0; r < layout.numRegs(); ++r) {
      tilec::Coords c = layout.regPart(r);
      index.emplace(std::make_pair(c[0], c[1]), r);
    }
  }
  int64_t operator()(int64_t row, int64_t col) const { return index.at({row, col}); }
  /// The distinct `step`-aligned starts of dimension `dim` its registers reach.
  std::set<int64_t> origins(int dim, int64_t step) const {
    std::set<int64_t> starts;
    for (const auto &entry : index) {
      int64_t c = dim == 0 ? entry.first.first : entry.first.second;
      starts.insert(c - c % step);
    }
    return starts;
  }

private:
  std::map<std::pair<int64_t, int64_t>, int64_t> index;
};

/// One mma.sync.m16n8k16 per 16x8 accumulator tile and 16-deep K step of
/// each warp, chained over K. Fragment registers are found by coordinates
/// (the PTX ISA's fragment tables are the layouts' definition).
struct MmaLowering : OpConversionPattern<MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(MmaOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The verifier has checked that these are the mma.sync layouts.
    RegisterAt aAt(*getLinearLayout(op.getA().getType()));
    RegisterAt bAt(*getLinearLayout(op.getB().getType()));
    RegisterAt cAt(*getLinearLayout(op.getAcc().getType()));
    SmallVector<Value> a = unpackRegisters(rewriter, loc, adaptor.getA());
    SmallVector<Value> b = unpackRegisters(rewriter, loc, adaptor.getB());
    SmallVector<Value> d = unpackRegisters(rewriter, loc, adaptor.getAcc());
    NVVM::MMATypes type =
        op.getA().getType().getElementType().isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
    auto pair = [&](ArrayRef<Value> regs, int64_t r0, int64_t r1) {
      return operandWord(rewriter, loc, regs[r0], regs[r1]);
    };
    for (int64_t row : cAt.origins(0, 16))
      for (int64_t col : cAt.origins(1, 8)) {
        std::array<int64_t, 4> at = {cAt(row, col), cAt(row, col + 1), cAt(row + 8, col),
                                     cAt(row + 8, col + 1)};
        SmallVector<Value> acc = {d[at[0]], d[at[1]], d[at[2]], d[at[3]]};
        for (int64_t k : aAt.origins(1, 16)) {
          SmallVector<Value> aWords = {
              pair(a, aAt(row, k), aAt(row, k + 1)), pair(a, aAt(row + 8, k), aAt(row + 8, k + 1)),
              pair(a, aAt(row, k + 8), aAt(row, k + 9)),
              pair(a, aAt(row + 8, k + 8), aAt(row + 8, k + 9))};
          SmallVector<Value> bWords = {pair(b, bAt(k, col), bAt(k + 1, col)),
                                       pair(b, bAt(k + 8, col), bAt(k + 9, col))};
          Value sum = NVVM::MmaOp::create(
              rewriter, loc, floatStruct(getContext(), 4), aWords, bWords, acc, {16, 8, 16},
              std::nullopt, std::nullopt, std::array<NVVM::MMATypes, 2>{type, type},
              std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row, NVVM::MMALayout::col});
          acc = unpackRegisters(rewriter, loc, sum);
        }
        for (auto [i, r] : llvm::enumerate(at))
          d[r] = acc[i];
      }
    rewriter.replaceOp(op, packRegisters(rewriter, loc, adaptor.getAcc().getType(), d));
    return success();
  }
};

/// The 64-bit wgmma shared-memory descriptor of the `swizzle`-byte-swizzled
/// buffer at `base` plus `offset` bytes: bits 0-13 the address >> 4, 16-29
/// the leading and 32-45 the stride byte offset >> 4, 62-63 the swizzle
/// mode (1: 128 bytes, 2: 64, 3: 32).
static Value matrixDescriptor(OpBuilder &b, Location loc, Value base, Value offset,
                              int64_t leadingBytes, int64_t strideBytes, int64_t swizzle = 128) {
  int64_t mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : 3;
  Value address = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), base);
  address = LLVM::AddOp::create(b, loc, address, offset);
  address = LLVM::LShrOp::create(
      b, loc, LLVM::AndOp::create(b, loc, address, constI32(b, loc, 0x3FFFF)),
      constI32(b, loc, 4));
  Value field = LLVM::ZExtOp::create(b, loc, b.getI64Type(), address);
  int64_t constant = ((leadingBytes >> 4) << 16) | ((strideBytes >> 4) << 32) | (mode << 62);
  return LLVM::OrOp::create(
      b, loc, field,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(constant)));
}

/// The descriptor of the step `offsetBytes` (a multiple of 16) past the one
/// `base` describes: its address field plus offsetBytes >> 4 (no carry:
/// shared addresses are below 2^18), added by an asm with side effects
/// right before the step's wgmma, so that LLVM cannot hoist every step's
/// descriptor of a loop-invariant buffer out of the loop and keep them all
/// in registers (16 of them at once, 32 registers, in the backward's dK/dV
/// with K and V resident); only `base` stays live.
static Value stepDescriptor(OpBuilder &b, Location loc, Value base, int64_t offsetBytes) {
  if (offsetBytes == 0)
    return base;
  return sideEffectAsm(b, loc, b.getI64Type(), ValueRange{base},
                       "add.s64 $0, $1, " + std::to_string(offsetBytes >> 4) + ";", "=l,l");
}

/// Bytes from a `swizzle`-byte-swizzled buffer of `rows` rows (column
/// blocks of `swizzle` bytes, each its own run of rows) to the 16-byte
/// chunk holding element (row, col), for rows that are multiples of 8
/// (where the swizzle pattern starts over).
static int64_t swizzledOffset(int64_t rows, int64_t row, int64_t col, int64_t elementBytes,
                              int64_t swizzle = 128) {
  int64_t perBlock = swizzle / elementBytes;
  return (col / perBlock) * rows * swizzle + row * swizzle + (col % perBlock) * elementBytes;
}

/// `registers` is a struct whose every member is the constant 0.0 (a zero
/// tile constant, as converted).
static bool isZero(Value registers) {
  auto type = cast<LLVM::LLVMStructType>(registers.getType());
  size_t members = type.getBody().size(), zeros = 0;
  while (auto insert = registers.getDefiningOp<LLVM::InsertValueOp>()) {
    if (!matchPattern(insert.getValue(), m_AnyZeroFloat()))
      return false;
    ++zeros;
    registers = insert.getContainer();
  }
  return zeros >= members && registers.getDefiningOp<LLVM::UndefOp>();
}

/// One `wgmma.mma_async` step with A from registers (four 32-bit words of
/// the A fragment), as inline assembly: NVVM's op takes A by descriptor
/// only. `chain` is the accumulator struct (tied in and out).
static Value wgmmaWithRegisterA(OpBuilder &b, Location loc, Value chain, ArrayRef<Value> aWords,
                                Value bDesc, int64_t n, bool bf16, bool scaleD, bool transposeB) {
  auto type = cast<LLVM::LLVMStructType>(chain.getType());
  int64_t count = type.getBody().size();
  SmallVector<Value> operands;
  std::string outputs, accList, aList, ties;
  for (int64_t i = 0; i < count; ++i) {
    outputs += "=f,";
    accList += (i ? ", $" : "$") + std::to_string(i);
    ties += "," + std::to_string(i);
  }
  for (auto [i, word] : llvm::enumerate(aWords)) {
    operands.push_back(word);
    aList += (i ? ", $" : "$") + std::to_string(count + i);
  }
  operands.push_back(bDesc);
  operands.push_back(constI32(b, loc, scaleD));
  int64_t bIndex = count + 4, scaleIndex = count + 5;
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(scaleIndex) +
                     ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(n) + "k16.f32." +
                     (bf16 ? "bf16.bf16" : "f16.f16") + " {" + accList + "}, {" + aList + "}, $" +
                     std::to_string(bIndex) + ", p, 1, 1, " + (transposeB ? "1" : "0") + ";\n}";
  for (int64_t i = 0; i < count; ++i)
    operands.push_back(LLVM::ExtractValueOp::create(b, loc, chain, i));
  return sideEffectAsm(b, loc, type, operands, text, outputs + "r,r,r,r,l,r" + ties);
}

/// wgmma.fence, one wgmma.mma_async m64nNk16 per 64-row slab of each
/// warpgroup and 16-deep K step, one commit group. The accumulators in
/// flight are the token. A comes from a swizzled buffer (by descriptor; K
/// contiguous, or M with transpose_a) or from registers in the wgmma
/// operand layout (its mma.sync m16k16 fragments, four words a step). On
/// column blocks (#tilegpu.wgmma<..., columns = C>) each warpgroup's N is
/// its block's width and its B descriptors start at its block.
struct WarpgroupDotLowering : OpConversionPattern<WarpgroupDotOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(WarpgroupDotOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aBuffer = dyn_cast<SharedMemoryType>(op.getA().getType());
    auto aTile = dyn_cast<RankedTensorType>(op.getA().getType());
    const bool aMMajor = op.getTransposeA(); // A stored K x M, M contiguous
    Type element = aBuffer ? aBuffer.getElementType() : aTile.getElementType();
    RankedTensorType accType = op.getAccType();
    int64_t m = accType.getDimSize(0), n = accType.getDimSize(1);
    int64_t k = aTile ? aTile.getDimSize(1) : aBuffer.getShape()[aMMajor ? 0 : 1];
    int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
    // The verifier has checked the accumulator's layout.
    WgmmaGrid grid = *wgmmaGridOf(*getLinearLayout(accType), m, n);
    const int64_t groupsM = grid.warpgroupsM, blockN = n / grid.columns;
    const int64_t slabs = m / (64 * groupsM), perSlab = blockN / 2;
    SmallVector<Value> acc = unpackRegisters(rewriter, loc, adaptor.getAcc());
    // A sum that starts at zero does not read the accumulators (scale-d = 0
    // on the first step), so ptxas need not order register writes before it.
    bool fromZero = isZero(adaptor.getAcc());

    // The warpgroup's place (runtime, uniform across its warps): its M index
    // below groupsM, then its column block. Read only where used (the
    // shuffle of warpUniform stays in the code).
    Value group;
    auto groupIndex = [&] {
      if (!group)
        group = warpUniform(rewriter, loc,
                            LLVM::LShrOp::create(rewriter, loc, threadIndex(rewriter, loc),
                                                 constI32(rewriter, loc, 7)));
      return group;
    };
    auto times = [&](Value index, int64_t bytes) -> Value {
      return LLVM::MulOp::create(rewriter, loc, index, constI32(rewriter, loc, bytes));
    };
    // From shared memory each warpgroup reads its own 64 rows of A: 64 rows
    // of 128 bytes further (K contiguous), or one 128-byte column block of
    // the K rows further (M contiguous).
    Value aOffset0 = constI32(rewriter, loc, 0);
    int64_t aRows = aBuffer ? aBuffer.getShape()[0] : 0;
    if (aBuffer && groupsM > 1) {
      Value groupM = grid.columns > 1
                         ? Value(LLVM::AndOp::create(rewriter, loc, groupIndex(),
                                                     constI32(rewriter, loc, groupsM - 1)))
                         : groupIndex();
      aOffset0 = times(groupM, aMMajor ? aRows * 128 : 64 * 128);
    }
    // From registers: four words of each m16k16 fragment (as mma.sync's A).
    SmallVector<Value> aRegs;
    std::optional<RegisterAt> aAt;
    if (aTile) {
      aRegs = unpackRegisters(rewriter, loc, adaptor.getA());
      aAt.emplace(*getLinearLayout(aTile));
    }
    auto aWords = [&](int64_t row, int64_t col) {
      auto word = [&](int64_t r, int64_t c) {
        return i32Word(rewriter, loc, aRegs[(*aAt)(r, c)], aRegs[(*aAt)(r, c + 1)]);
      };
      return SmallVector<Value>{word(row, col), word(row + 8, col), word(row, col + 8),
                                word(row + 8, col + 8)};
    };

    auto bBuffer = op.getB().getType();
    bool bKMajor = op.getTransposeB(); // B stored N x K, K contiguous
    int64_t bRows = bBuffer.getShape()[0];
    // B's swizzle: 128 bytes, or 64 or 32 for narrower rows (one column
    // block; tilegpu-lower-dots stages them so in tilec.narrow_wgmma kernels).
    int64_t bSwizzle = cast<SwizzledAttr>(bBuffer.getEncoding()).getBytes();
    // A column block's warpgroups start at its first column of B: rows of
    // B further (K contiguous), or whole column blocks (tilegpu-lower-dots
    // makes blocks of whole swizzle widths there).
    Value bOffset0 = constI32(rewriter, loc, 0);
    if (grid.columns > 1) {
      Value groupN = groupsM > 1 ? Value(LLVM::LShrOp::create(
                                       rewriter, loc, groupIndex(),
                                       constI32(rewriter, loc, llvm::Log2_64(uint64_t(groupsM)))))
                                 : groupIndex();
      bOffset0 = times(groupN, bKMajor ? blockN * bSwizzle
                                       : blockN * elementBytes / bSwizzle * bRows * bSwizzle);
    }
    MLIRContext *context = getContext();
    auto typeAttr = NVVM::WGMMATypesAttr::get(
        context, element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16);
    auto one = NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one);

    // Every register the wgmmas read is written before wgmma.fence (else
    // ptxas orders them itself with extra warpgroup.arrive, C7519).
    SmallVector<Value> chains;
    for (int64_t slab = 0; slab < slabs; ++slab)
      chains.push_back(packRegisters(rewriter, loc, floatStruct(context, perSlab),
                                     ArrayRef<Value>(acc).slice(slab * perSlab, perSlab)));
    SmallVector<SmallVector<Value>> stepWords;
    if (aTile)
      for (int64_t slab = 0; slab < slabs; ++slab)
        for (int64_t step = 0; step < k / 16; ++step)
          stepWords.push_back(aWords(64 * groupsM * slab, 16 * step));

    // The buffers' descriptors; each step's is one of these plus its offset.
    // K-major: 8-row atoms 8 * swizzle bytes apart (the leading offset
    // unused); M- or N-major: the column blocks rows * swizzle bytes apart,
    // the 8-row atoms along K 8 * swizzle.
    Value bBase = matrixDescriptor(rewriter, loc, adaptor.getB(), bOffset0,
                                   bKMajor ? 16 : bRows * bSwizzle, 8 * bSwizzle, bSwizzle);
    Value aBase = aBuffer ? matrixDescriptor(rewriter, loc, adaptor.getA(), aOffset0,
                                             aMMajor ? aRows * 128 : 16, 1024)
                          : Value();
    NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    SmallVector<Value> out;
    for (int64_t slab = 0; slab < slabs; ++slab) {
      Value chain = chains[slab];
      for (int64_t step = 0; step < k / 16; ++step) {
        bool scaleD = !(fromZero && step == 0);
        int64_t bOffset = bKMajor ? swizzledOffset(bRows, 0, 16 * step, elementBytes, bSwizzle)
                                  : 16 * step * bSwizzle;
        Value bDesc = stepDescriptor(rewriter, loc, bBase, bOffset);
        if (aTile) {
          chain = wgmmaWithRegisterA(rewriter, loc, chain, stepWords[slab * (k / 16) + step], bDesc,
                                     blockN, element.isBF16(), scaleD,
                                     /*transposeB=*/!bKMajor);
          continue;
        }
        int64_t aOffset = aMMajor
                              ? swizzledOffset(aRows, 16 * step, 64 * groupsM * slab, elementBytes)
                              : swizzledOffset(aRows, 64 * groupsM * slab, 16 * step, elementBytes);
        Value aDesc = stepDescriptor(rewriter, loc, aBase, aOffset);
        chain = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, chain.getType(), chain, aDesc, bDesc,
            NVVM::MMAShapeAttr::get(context, 64, blockN, 16), typeAttr, typeAttr,
            NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
            NVVM::WGMMAScaleOutAttr::get(context, scaleD ? NVVM::WGMMAScaleOut::one
                                                         : NVVM::WGMMAScaleOut::zero),
            // NVVM's names: A row-major and B column-major are K contiguous.
            one, one,
            NVVM::MMALayoutAttr::get(context,
                                     aMMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row),
            NVVM::MMALayoutAttr::get(context,
                                     bKMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row),
            NVVM::MMAIntOverflowAttr());
      }
      llvm::append_range(out, unpackRegisters(rewriter, loc, chain));
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
    rewriter.replaceOp(op, packRegisters(rewriter, loc, adaptor.getAcc().getType(), out));
    return success();
  }
};

/// `registers` (an LLVM struct of one thread's registers) passed through an
/// empty asm with side effects, each register tied to an output: their reads
/// stay after it.
static Value pinRegisters(OpBuilder &b, Location loc, Value registers) {
  auto type = cast<LLVM::LLVMStructType>(registers.getType());
  SmallVector<Value> values;
  std::string outputs, inputs;
  for (auto [i, element] : llvm::enumerate(type.getBody())) {
    values.push_back(LLVM::ExtractValueOp::create(b, loc, registers, int64_t(i)));
    outputs += element.isF32() ? "=f," : "=r,";
    inputs += (i ? "," : "") + std::to_string(i);
  }
  return sideEffectAsm(b, loc, type, values, "", outputs + inputs);
}

/// Every register of the `after` tiles (LLVM structs of f32) stored to
/// shared memory under a predicate no launch makes true (the dynamic
/// shared memory is below 2^31 bytes): ptxas keeps a store before the
/// `wgmma.wait_group` that follows, and with it the computation of the
/// values, which it would otherwise schedule after the wait.
static void keepAboveWait(OpBuilder &b, Location loc, ValueRange after) {
  SmallVector<Value> values;
  for (Value registers : after)
    llvm::append_range(values, unpackRegisters(b, loc, registers));
  if (values.empty())
    return;
  std::string text = "{\n\t.reg .pred never;\n\t.reg .b32 bytes;\n\t"
                     "mov.u32 bytes, %dynamic_smem_size;\n\t"
                     "setp.gt.u32 never, bytes, 0x7fffffff;\n\t";
  std::string constraints;
  for (size_t i = 0; i < values.size(); ++i) {
    text += "@never st.shared.f32 [bytes], $" + std::to_string(i) + ";\n\t";
    constraints += i ? ",f" : "f";
  }
  text += "}";
  sideEffectAsmOp(b, loc, TypeRange{}, values, text, constraints);
}

/// `wgmma.wait_group pending` (after the `after` values' stores), then the
/// accumulators of the awaited tokens, pinned after the wait.
struct DotWaitLowering : OpConversionPattern<DotWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(DotWaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    keepAboveWait(rewriter, loc, adaptor.getAfter());
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, op.getPending());
    SmallVector<Value> results;
    for (Value registers : adaptor.getTokens())
      results.push_back(pinRegisters(rewriter, loc, registers));
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void tilec::tilegpu::populateTileGPUMmaToNVVMPatterns(const TileGPUTypeConverter &converter,
                                                      RewritePatternSet &patterns) {
  patterns.add<MmaLowering, WarpgroupDotLowering, DotWaitLowering>(converter,
                                                                 patterns.getContext());
}
