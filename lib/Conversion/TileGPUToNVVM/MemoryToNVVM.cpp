//===- MemoryToNVVM.cpp - shared buffers, cp.async groups, TMA ------------===//

#include "Common.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include <optional>

using namespace mlir;
using namespace tilec::tilegpu;
using namespace tilec::tilegpu::nvvm;
namespace tile = tilec::tile;

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

/// The address of element `index` of a one-dimensional buffer: one row,
/// so neither padding nor swizzling moves it.
static Value scalarAddress(OpBuilder &b, Location loc, SharedMemoryType type, Value buffer,
                           Value index) {
  int64_t bytes = type.getElementType().getIntOrFloatBitWidth() / 8;
  return byteOffset(b, loc, buffer, LLVM::MulOp::create(b, loc, index, constI32(b, loc, bytes)));
}

struct ScalarStoreLowering : OpConversionPattern<ScalarStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScalarStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    LLVM::StoreOp::create(rewriter, loc, adaptor.getValue(),
                          scalarAddress(rewriter, loc, op.getBuffer().getType(),
                                        adaptor.getBuffer(), adaptor.getIndex()));
    rewriter.eraseOp(op);
    return success();
  }
};

struct ScalarLoadLowering : OpConversionPattern<ScalarLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ScalarLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOpWithNewOp<LLVM::LoadOp>(op, op.getType(),
                                              scalarAddress(rewriter, loc, op.getBuffer().getType(),
                                                            adaptor.getBuffer(),
                                                            adaptor.getIndex()));
    return success();
  }
};

/// Integer arithmetic on i32 values in IR and on known numbers, so that one
/// formula (bufferOffset) makes a thread's addresses and, at compile time,
/// checks them (SharedPlacement).
struct IRInts {
  using Int = Value;
  OpBuilder &b;
  Location loc;
  Value c(int64_t v) { return constI32(b, loc, v); }
  Value add(Value x, Value y) { return LLVM::AddOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) { return LLVM::MulOp::create(b, loc, x, c(y)); }
  Value div(Value x, int64_t y) { return LLVM::UDivOp::create(b, loc, x, c(y)); }
  Value rem(Value x, int64_t y) { return LLVM::URemOp::create(b, loc, x, c(y)); }
  Value shr(Value x, int64_t y) { return LLVM::LShrOp::create(b, loc, x, c(y)); }
  Value shl(Value x, int64_t y) { return LLVM::ShlOp::create(b, loc, x, c(y)); }
  Value andC(Value x, int64_t y) { return LLVM::AndOp::create(b, loc, x, c(y)); }
  Value xorV(Value x, Value y) { return LLVM::XOrOp::create(b, loc, x, y); }
};
struct KnownInts {
  using Int = int64_t;
  int64_t c(int64_t v) { return v; }
  int64_t add(int64_t x, int64_t y) { return x + y; }
  int64_t mul(int64_t x, int64_t y) { return x * y; }
  int64_t div(int64_t x, int64_t y) { return x / y; }
  int64_t rem(int64_t x, int64_t y) { return x % y; }
  int64_t shr(int64_t x, int64_t y) { return x >> y; }
  int64_t shl(int64_t x, int64_t y) { return x << y; }
  int64_t andC(int64_t x, int64_t y) { return x & y; }
  int64_t xorV(int64_t x, int64_t y) { return x ^ y; }
};

/// Bytes from the start of `buffer` to byte `byteInRow` of row `row` (rows:
/// every dimension but the last, row-major). Padded rows are followed by
/// their padding; swizzled rows are cut into column blocks of `span` bytes,
/// each holding all rows, and in a block the 16-byte chunk j of the row at
/// byte o sits at chunk j ^ ((o / 128) % (span / 16)).
template <typename Ints>
static typename Ints::Int rowByteOffset(Ints ints, SharedMemoryType buffer, typename Ints::Int row,
                                        typename Ints::Int byteInRow) {
  if (auto padded = dyn_cast<PaddedAttr>(buffer.getEncoding()))
    return ints.add(ints.mul(row, buffer.getRowBytes() + padded.getBytes()), byteInRow);
  int64_t span = cast<SwizzledAttr>(buffer.getEncoding()).getBytes();
  int64_t rows = buffer.getSizeInBytes() / buffer.getRowBytes();
  auto block = ints.div(byteInRow, span);
  auto within = ints.rem(byteInRow, span);
  auto rowStart = ints.mul(row, span);
  auto phase = ints.andC(ints.shr(rowStart, 7), span / 16 - 1);
  auto chunk = ints.xorV(ints.shr(within, 4), phase);
  auto inChunk = ints.andC(within, 15);
  return ints.add(ints.add(ints.mul(block, rows * span), rowStart),
                  ints.add(ints.shl(chunk, 4), inChunk));
}

/// The byte offset of the element at `coords` (one per dimension).
template <typename Ints>
static typename Ints::Int bufferOffset(Ints ints, SharedMemoryType buffer,
                                       ArrayRef<typename Ints::Int> coords) {
  ArrayRef<int64_t> shape = buffer.getShape();
  auto row = ints.c(0); // rows: every dimension but the last, row-major
  for (size_t d = 0; d + 1 < coords.size(); ++d)
    row = ints.add(ints.mul(row, shape[d]), coords[d]);
  int64_t elementBytes = (buffer.getElementType().getIntOrFloatBitWidth() + 7) / 8;
  return rowByteOffset(ints, buffer, row, ints.mul(coords.back(), elementBytes));
}

/// Where this thread's registers of a distributed tile sit in a shared
/// buffer: the buffer's encoding turns each register's coordinates into a
/// byte offset.
///
/// In a swizzled buffer the offset is usually linear over XOR in the bits of
/// the register, lane and warp indices (power-of-two shapes: row, column
/// block and chunk occupy bits of their own, and the swizzle is an XOR). Then
/// register r's offset is the thread's offset (that of register 0) XOR a
/// constant, and the constant's bits that no thread's offset has are added
/// instead: `(thread ^ (c & threadBits)) + (c & ~threadBits)`. Registers
/// that differ only in added bits share one XOR and differ by an immediate
/// in the address, so a loop keeps a few address registers live rather than
/// one per store (the fused backward's f32 dQ staging spilled them).
class SharedPlacement {
public:
  SharedPlacement(OpBuilder &b, Location loc, const tilec::LinearLayout &layout,
                  SharedMemoryType buffer)
      : b(b), loc(loc), layout(layout), coordinates(b, loc, layout), buffer(buffer) {
    if (isa<SwizzledAttr>(buffer.getEncoding()) && isXorLinear())
      threadOffset = general(0);
  }

  /// The byte offset of register `reg` in the buffer.
  Value offset(int64_t reg) {
    if (!threadOffset)
      return general(reg);
    int64_t c = knownOffset(layout.regPart(reg));
    Value offset = threadOffset;
    if (c & threadBits)
      offset = LLVM::XOrOp::create(b, loc, offset, constI32(b, loc, c & threadBits));
    if (c & ~threadBits)
      offset = LLVM::AddOp::create(b, loc, offset, constI32(b, loc, c & ~threadBits));
    return offset;
  }

private:
  /// The offset computed from the register's coordinates.
  Value general(int64_t reg) {
    SmallVector<Value> coords = coordinates.of(reg);
    return bufferOffset(IRInts{b, loc}, buffer, coords);
  }

  /// Whether every register's offset in every thread is the XOR of the
  /// thread's and the register's (checked, not assumed); sets threadBits.
  bool isXorLinear() {
    if (!buffer.getElementType().isIntOrFloat() || knownOffset(layout.regPart(0)) != 0)
      return false;
    for (int64_t warp = 0; warp < layout.numWarps(); ++warp)
      for (int64_t lane = 0; lane < 32; ++lane) {
        int64_t thread = knownOffset(layout.apply(0, lane, warp));
        threadBits |= thread;
        for (int64_t reg = 1; reg < layout.numRegs(); ++reg)
          if (knownOffset(layout.apply(reg, lane, warp)) !=
              (thread ^ knownOffset(layout.regPart(reg))))
            return false;
      }
    return true;
  }

  int64_t knownOffset(const tilec::Coords &coords) const {
    return bufferOffset(KnownInts{}, buffer, ArrayRef<int64_t>(coords));
  }

  OpBuilder &b;
  Location loc;
  tilec::LinearLayout layout;
  TileCoordinates coordinates;
  SharedMemoryType buffer;
  Value threadOffset;     ///< register 0's offset, where the offsets are XOR-linear
  int64_t threadBits = 0; ///< the bits any thread's offset may have
};

/// How many consecutive registers of a `tile` one shared access of
/// `buffer` may move, as one vector of at most 16 bytes: the registers whose
/// first bases step along the row one element each (LinearLayout::
/// vectorWidth), when every other basis keeps a group's first column a
/// multiple of the width and the buffer's rows keep groups aligned (a
/// swizzled buffer moves whole 16-byte chunks; a padded row's bytes with
/// their padding must be a multiple of the group's). 1: element by element.
static int64_t sharedVectorWidth(const tilec::LinearLayout &layout, RankedTensorType tile,
                                 SharedMemoryType buffer) {
  Type element = tile.getElementType();
  if (element != buffer.getElementType() || !element.isIntOrFloat())
    return 1;
  unsigned bits = element.getIntOrFloatBitWidth();
  if (bits % 8)
    return 1;
  int64_t width = layout.vectorWidth(bits);
  int64_t last = layout.rank() - 1;
  auto keepsGroups = [&](const std::vector<tilec::Coords> &bases, size_t from) {
    for (size_t i = from; i < bases.size(); ++i)
      if (bases[i][last] % width)
        return false;
    return true;
  };
  if (width == 1 || !keepsGroups(layout.regs(), llvm::Log2_64(width)) ||
      !keepsGroups(layout.lanes(), 0) || !keepsGroups(layout.warps(), 0))
    return 1;
  if (auto padded = dyn_cast<PaddedAttr>(buffer.getEncoding());
      padded && (buffer.getRowBytes() + padded.getBytes()) % (width * bits / 8))
    return 1;
  return width;
}

/// Each group of sharedVectorWidth registers read from its place in the
/// buffer (replicas read the same).
struct LocalLoadLowering : OpConversionPattern<LocalLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    tilec::LinearLayout layout = *getLinearLayout(op.getType());
    SharedPlacement placement(rewriter, loc, layout, op.getSrc().getType());
    Type element = op.getType().getElementType();
    int64_t width = sharedVectorWidth(layout, op.getType(), op.getSrc().getType());
    unsigned bytes = width * element.getIntOrFloatBitWidth() / 8;
    SmallVector<Value> values;
    for (int64_t r = 0; r < layout.numRegs(); r += width) {
      Value address = byteOffset(rewriter, loc, adaptor.getSrc(), placement.offset(r));
      if (width == 1) {
        values.push_back(LLVM::LoadOp::create(rewriter, loc, element, address));
        continue;
      }
      Value vector =
          LLVM::LoadOp::create(rewriter, loc, VectorType::get({width}, element), address, bytes);
      for (int64_t i = 0; i < width; ++i)
        values.push_back(
            LLVM::ExtractElementOp::create(rewriter, loc, vector, constI32(rewriter, loc, i)));
    }
    rewriter.replaceOp(op, packRegisters(rewriter, loc,
                                         getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// local_store `matrix`: one stmatrix.x4 per four 8x8 blocks of this
/// thread's registers (fitsStMatrix). Register pair k is block k, so blocks
/// 4g..4g+3 differ by register bases 1 and 2, and lane t gives the address
/// of row t % 8 of block 4g + t / 8: the place, in the layout whose lanes
/// are those rows and register bases, of the group's first register.
static void storeByMatrix(ConversionPatternRewriter &rewriter, Location loc, LocalStoreOp op,
                          Value buffer, Value value) {
  RankedTensorType type = op.getValue().getType();
  tilec::LinearLayout layout = *getLinearLayout(type);
  const std::vector<tilec::Coords> &regs = layout.regs();
  tilec::LinearLayout rowStarts(layout.shape(), regs, {{1, 0}, {2, 0}, {4, 0}, regs[1], regs[2]},
                                layout.warps());
  SharedPlacement placement(rewriter, loc, rowStarts, op.getDst().getType());
  SmallVector<Value> words;
  for (int64_t r = 0; r < layout.numRegs(); r += 2)
    words.push_back(i32Word(rewriter, loc, LLVM::ExtractValueOp::create(rewriter, loc, value, r),
                            LLVM::ExtractValueOp::create(rewriter, loc, value, r + 1)));
  for (size_t group = 0; 4 * group < words.size(); ++group)
    NVVM::StMatrixOp::create(
        rewriter, loc, byteOffset(rewriter, loc, buffer, placement.offset(8 * group)),
        ArrayRef<Value>(words).slice(4 * group, 4), NVVM::MMALayout::row,
        NVVM::LdStMatrixShapeAttr::get(rewriter.getContext(), 8, 8), NVVM::LdStMatrixEltType::B16);
}

/// Each group of sharedVectorWidth registers written to its place in the
/// buffer (replicas write the same value to the same place).
struct LocalStoreLowering : OpConversionPattern<LocalStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (op.getMatrix()) { // the verifier has checked fitsStMatrix
      storeByMatrix(rewriter, loc, op, adaptor.getDst(), adaptor.getValue());
      rewriter.eraseOp(op);
      return success();
    }
    RankedTensorType type = op.getValue().getType();
    tilec::LinearLayout layout = *getLinearLayout(type);
    SharedPlacement placement(rewriter, loc, layout, op.getDst().getType());
    int64_t width = sharedVectorWidth(layout, type, op.getDst().getType());
    unsigned bytes = width * type.getElementType().getIntOrFloatBitWidth() / 8;
    for (int64_t r = 0; r < layout.numRegs(); r += width) {
      Value address = byteOffset(rewriter, loc, adaptor.getDst(), placement.offset(r));
      Value value = LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getValue(), r);
      if (width > 1) {
        Value vector =
            LLVM::UndefOp::create(rewriter, loc, VectorType::get({width}, value.getType()));
        for (int64_t i = 0; i < width; ++i)
          vector = LLVM::InsertElementOp::create(
              rewriter, loc, vector,
              i ? LLVM::ExtractValueOp::create(rewriter, loc, adaptor.getValue(), r + i) : value,
              constI32(rewriter, loc, i));
        value = vector;
      }
      LLVM::StoreOp::create(rewriter, loc, value, address, width > 1 ? bytes : 0);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// A conversion within threads: each register of the result is one of the
/// source's (the mma accumulator of two n8 tiles is the A fragment of a k16
/// step, FlashAttention's P). Conversions across threads go through shared
/// memory, which this pattern does not allocate: the IR says it with
/// local_store and local_load.
struct ConvertLayoutLowering : OpConversionPattern<ConvertLayoutOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    tilec::LinearLayout from = *getLinearLayout(op.getSrc().getType());
    tilec::LinearLayout to = *getLinearLayout(op.getType());
    std::optional<std::vector<int64_t>> sources =
        tilec::registerLocalMove(from, to, [](const tilec::Coords &c) { return c; });
    if (!sources)
      return op.emitOpError("expected a conversion within threads (one across threads goes "
                            "through shared memory: tilegpu-lower-conversions, or "
                            "tilegpu.local_store then local_load)");
    rewriter.replaceOp(op, pickRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(op.getType()),
                                         adaptor.getSrc(), *sources));
    return success();
  }
};

/// A descriptor as (base, shape..., strides...).
struct MakeDescLowering : OpConversionPattern<tile::MakeDescOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(tile::MakeDescOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    SmallVector<Value> members{adaptor.getBase()};
    llvm::append_range(members, adaptor.getShape());
    llvm::append_range(members, adaptor.getStrides());
    rewriter.replaceOp(op, packRegisters(rewriter, op.getLoc(),
                                         getTypeConverter()->convertType(op.getType()),
                                         members));
    return success();
  }
};

/// The block cut into 16-byte chunks of whole rows, chunk `c` copied by
/// thread `c mod threads` of the group that runs the op (`cp.async.cg`, 16
/// bytes; the bytes past the descriptor's shape are zero-filled by
/// `src-size`). Rows of the buffer are the block's non-unit dimensions but
/// the last, row-major. Like tile-to-llvm's streams it assumes what the
/// runtime checks for aligned kernels: the last dimension contiguous and
/// rows 16-byte aligned.
struct AsyncCopyLowering : OpConversionPattern<AsyncCopyOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> threads = threadCount(op);
    if (!threads)
      return op.emitOpError("expected the kernel's thread count (nvvm.reqntid) or a warp role "
                            "around the copy");
    Location loc = op.getLoc();
    tile::TensorDescType desc = op.getDesc().getType();
    SharedMemoryType dst = op.getDst().getType();
    int64_t rank = desc.getRank();
    int64_t elementBytes = dst.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t rowBytes = dst.getRowBytes(), chunksPerRow = rowBytes / 16;
    SmallVector<int64_t> dims; // the block's non-unit dimensions
    for (int64_t d = 0; d < rank; ++d)
      if (desc.getBlockShape()[d] != 1)
        dims.push_back(d);
    int64_t rows = 1;
    for (int64_t d : ArrayRef<int64_t>(dims).drop_back())
      rows *= desc.getBlockShape()[d];
    int64_t chunks = rows * chunksPerRow;

    auto c32 = [&](int64_t v) { return constI32(rewriter, loc, v); };
    auto c64 = [&](int64_t v) {
      return LLVM::ConstantOp::create(rewriter, loc, rewriter.getI64Type(),
                                      rewriter.getI64IntegerAttr(v));
    };
    SmallVector<Value> parts = unpackRegisters(rewriter, loc, adaptor.getDesc());
    Value base = parts[0];
    Value tid = threadIndex(rewriter, loc);
    for (int64_t first = 0; first < chunks; first += *threads) {
      Value chunk = LLVM::AddOp::create(rewriter, loc, tid, c32(first));
      auto copy = [&](OpBuilder &b) {
        Value row = LLVM::UDivOp::create(b, loc, chunk, c32(chunksPerRow));
        Value inRow = LLVM::URemOp::create(b, loc, chunk, c32(chunksPerRow));
        // Global coordinates: the offsets plus the chunk's place in the block.
        SmallVector<Value> local(rank, c32(0));
        Value rest = row;
        for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) {
          int64_t extent = desc.getBlockShape()[dims[i]];
          local[dims[i]] = LLVM::URemOp::create(b, loc, rest, c32(extent));
          rest = LLVM::UDivOp::create(b, loc, rest, c32(extent));
        }
        local[dims.back()] = LLVM::MulOp::create(b, loc, inRow, c32(16 / elementBytes));
        Value inBounds = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
        Value address = c64(0);
        Value remaining;
        for (int64_t d = 0; d < rank; ++d) {
          Value coord = LLVM::AddOp::create(b, loc, adaptor.getOffsets()[d], local[d]);
          Value extent = parts[1 + d];
          if (d == dims.back())
            remaining = LLVM::SubOp::create(b, loc, extent, coord);
          else
            inBounds = LLVM::AndOp::create(
                b, loc, inBounds,
                LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, coord, extent));
          Value wide = LLVM::SExtOp::create(b, loc, b.getI64Type(), coord);
          address = LLVM::AddOp::create(b, loc, address,
                                        LLVM::MulOp::create(b, loc, wide, parts[1 + rank + d]));
        }
        // Bytes to read: up to 16, fewer at the end of a row, none outside.
        Value bytes = LLVM::MulOp::create(b, loc, remaining, c32(elementBytes));
        bytes = LLVM::SMaxOp::create(b, loc, LLVM::SMinOp::create(b, loc, bytes, c32(16)), c32(0));
        bytes = LLVM::SelectOp::create(b, loc, inBounds, bytes, c32(0));
        Value src = LLVM::GEPOp::create(
            b, loc, LLVM::LLVMPointerType::get(b.getContext(), kGlobalSpace),
            dst.getElementType(), base,
            ValueRange{LLVM::SelectOp::create(b, loc, inBounds, address, c64(0))});
        Value target = byteOffset(
            b, loc, adaptor.getDst(),
            rowByteOffset(IRInts{b, loc}, dst, row, LLVM::MulOp::create(b, loc, inRow, c32(16))));
        NVVM::CpAsyncOp::create(b, loc, target, src, 16, NVVM::LoadCacheModifierKind::CG, bytes);
      };
      if (first + *threads <= chunks) {
        copy(rewriter);
        continue;
      }
      // The last round: threads past the block copy nothing.
      Value active = LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::ult, chunk, c32(chunks));
      auto ifOp = scf::IfOp::create(rewriter, loc, TypeRange{}, active, /*withElse=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      copy(rewriter);
    }
    rewriter.replaceOp(op, c32(0));
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
/// one elected lane of each warp that runs it: one copy per box, the boxes
/// of a wide buffer into its column blocks (columnBlockBoxes), the
/// innermost coordinate advancing by the box's width.
struct TMALoadLowering : OpConversionPattern<TMALoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMALoadOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(), adaptor.getIndex());
    TensorMapType map = op.getMap().getType();
    SharedMemoryType dst = op.getDst().getType();
    int64_t boxes = columnBlockBoxes(map, dst);
    int64_t blockBytes = dst.getSizeInBytes() / boxes;
    Value elected = electedLane(rewriter, loc);
    for (int64_t k = 0; k < boxes; ++k) {
      SmallVector<Value> coords = adaptor.getCoords();
      if (k)
        coords.back() = LLVM::AddOp::create(rewriter, loc, coords.back(),
                                            constI32(rewriter, loc, k * map.getBoxShape().back()));
      Value block = k ? byteOffset(rewriter, loc, adaptor.getDst(),
                                   constI32(rewriter, loc, k * blockBytes))
                      : adaptor.getDst();
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          rewriter, loc, block, adaptor.getMap(), tmaCoordinates(coords), barrier,
          /*im2colOffsets=*/ValueRange{}, /*multicastMask=*/Value(),
          /*l2CacheHint=*/Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
          NVVM::CTAGroupKindAttr(), elected);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// `cp.async.bulk.tensor...global.shared::cta` (one per box, the boxes of
/// a wide buffer from its column blocks, as for loads) and one bulk commit
/// group, issued by one elected lane of each warp that runs it.
struct TMAStoreLowering : OpConversionPattern<TMAStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult matchAndRewrite(TMAStoreOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    TensorMapType map = op.getMap().getType();
    SharedMemoryType src = op.getSrc().getType();
    int64_t boxes = columnBlockBoxes(map, src);
    int64_t blockBytes = src.getSizeInBytes() / boxes;
    Value elected = electedLane(rewriter, loc);
    // The reduction has no predicate operand: the elected lane branches.
    std::optional<OpBuilder> inBranch;
    if (op.getAdd()) {
      auto branch = scf::IfOp::create(rewriter, loc, TypeRange{}, elected,
                                      /*withElseRegion=*/false);
      inBranch = OpBuilder::atBlockBegin(&branch.getThenRegion().front());
    }
    OpBuilder &b = inBranch ? *inBranch : rewriter;
    for (int64_t k = 0; k < boxes; ++k) {
      SmallVector<Value> coords = adaptor.getCoords();
      if (k)
        coords.back() = LLVM::AddOp::create(b, loc, coords.back(),
                                            constI32(b, loc, k * map.getBoxShape().back()));
      Value block = k ? byteOffset(b, loc, adaptor.getSrc(), constI32(b, loc, k * blockBytes))
                      : adaptor.getSrc();
      if (op.getAdd())
        NVVM::CpAsyncBulkTensorReduceOp::create(b, loc, adaptor.getMap(), block,
                                                NVVM::TMAReduxKind::ADD, NVVM::TMAStoreMode::TILE,
                                                tmaCoordinates(coords), /*l2CacheHint=*/Value());
      else
        NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
            b, loc, adaptor.getMap(), block, tmaCoordinates(coords), /*l2CacheHint=*/Value(),
            NVVM::TMAStoreMode::TILE, elected);
    }
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
  patterns.add<AllocLowering, SlotLowering, LocalLoadLowering, LocalStoreLowering,
               ScalarStoreLowering, ScalarLoadLowering, ConvertLayoutLowering, MakeDescLowering,
               AsyncCopyLowering, AsyncCommitGroupLowering, AsyncWaitLowering, TMALoadLowering,
               TMAStoreLowering, TMAStoreWaitLowering>(converter, patterns.getContext());
}
