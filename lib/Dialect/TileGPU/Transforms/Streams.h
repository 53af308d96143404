//===- Streams.h - loop block loads as rings, shared by the stream passes -===//
//
// What tilegpu-pipeline-streams knows about one streamed block load, and the
// steps both of its forms use: in one role (cp.async or TMA copies issued
// by the threads that compute) and warp-specialized (TMA copies issued by a
// producer warp, WarpSpecializeStreams.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_STREAMS_H
#define TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_STREAMS_H

#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>

namespace tilec::tilegpu::streams {

/// Threads of a warpgroup (four warps): a producer role's size, and the
/// most that run in step without a block barrier.
inline constexpr int32_t kWarpgroupThreads = 128;

/// The kernel arguments nothing in the kernel writes through, so a value
/// loaded from one is the same wherever it is loaded (a packed sequence's
/// offsets, a page table): the stream passes may load it again (to
/// compute a block's coordinates ahead, or in the producer role).
class ReadOnlyArguments {
public:
  explicit ReadOnlyArguments(mlir::FunctionOpInterface kernel);
  /// Whether `op` is a one-value load (`tile.load_scalar`) from such an
  /// argument.
  bool loadsConstant(mlir::Operation *op) const;

private:
  llvm::DenseSet<mlir::BlockArgument> written;
  llvm::DenseMap<mlir::Operation *, mlir::BlockArgument> roots; ///< of each one-value load
  bool writesUntraced = false;
};

/// One block load of a loop turned into a ring.
struct Stream {
  tile::LoadBlockOp load;
  /// The reshape that drops the block's unit dimensions, when it has some
  /// (its result is what the readers read).
  tile::ReshapeOp reshape;
  /// The loop's pure ops the coordinates are computed from (in order).
  llvm::SmallVector<mlir::Operation *> slice;
  /// The shared buffer the load only fills, if it does (else readers get a
  /// local_load).
  AllocOp filled;
  mlir::Value ring;
};

/// The block loads of `loop` that can be streamed (i32 induction variable,
/// descriptor on a kernel argument made before the loop, coordinates from
/// the induction variable through pure ops and loads of read-only
/// arguments, 16-byte rows). `tileLoop`: the loop over a persistent
/// kernel's tiles, whose coordinates may divide by grid arguments (ops
/// without memory effects that the body runs every iteration anyway) and
/// whose filled buffers may be read inside nested loops.
llvm::SmallVector<Stream> collectStreams(mlir::scf::ForOp loop, mlir::FunctionOpInterface kernel,
                                         const ReadOnlyArguments &readOnly,
                                         bool tileLoop = false);

/// Whether `make` describes its base's tensor parameter as the runtime
/// passes it (base pointer, then the sizes, then the strides, as kernel
/// arguments): a tensor map is made from that argument, not from the
/// descriptor's operands.
bool describesItsArgument(tile::MakeDescOp make);

/// The bytes of one block of `desc`.
int64_t blockBytes(tile::TensorDescType desc);

/// The kernel argument `stream`'s descriptor is made on.
unsigned baseArgument(Stream &stream);

/// The encoding of `stream`'s ring: the filled buffer's; else padded<16>
/// rows, or padded<0> for a block of one row (statistics vectors).
mlir::Attribute ringEncoding(Stream &stream);

/// Makes `stream.ring`: `slots` slots of the block (without unit
/// dimensions), in ringEncoding.
void makeRing(mlir::OpBuilder &b, mlir::Location loc, Stream &stream, int64_t slots);

/// The block's coordinates for induction variable `iv`: the stream's slice
/// cloned at `b`, with values from outside the loop taken through `outer`
/// (identity where it has none).
llvm::SmallVector<mlir::Value> offsetsAt(mlir::OpBuilder &b, Stream &stream, mlir::scf::ForOp loop,
                                         mlir::Value iv, const mlir::IRMapping &outer);

/// The values from outside `loop` that `stream`'s coordinates use.
llvm::SmallVector<mlir::Value> outsideInputs(Stream &stream, mlir::scf::ForOp loop);

/// At the top of a loop body (`b`): each stream's readers read slot `slot`
/// of its ring instead (or the slot replaces the filled buffer); the loads,
/// their reshapes and the filling stores go (`b` may then point at an
/// erased op). Returns the slots, one per stream.
llvm::SmallVector<mlir::Value> readSlots(mlir::OpBuilder &b, mlir::MutableArrayRef<Stream> streams,
                                         mlir::Value slot);

/// The rings' iteration, slot and round of induction variable `iv` of a
/// loop from `lower` by `step` whose first iteration is the rings'
/// iteration `base` (none: 0).
struct Position {
  mlir::Value iteration, slot, round;
};
Position positionOf(mlir::OpBuilder &b, mlir::Location loc, mlir::Value iv, mlir::Value lower,
                    mlir::Value step, mlir::Value base, int64_t slots);
/// The position of iteration `iteration` (counted from 0) on a ring of `slots`.
Position positionAt(mlir::OpBuilder &b, mlir::Location loc, mlir::Value iteration, int64_t slots);

/// The TMA box that fills `stream`'s ring slot: the block with its
/// innermost dimension cut to one column block of a swizzled ring, or the
/// whole block for a padded<0> ring (one row) whose slots are 128-byte
/// multiples; none when the function is not a kernel (tensor maps are new
/// kernel arguments), the descriptor is not its tensor argument's own sizes
/// and strides (the runtime makes the map from those), the ring is padded
/// rows, the block not whole column blocks, or a box dimension over TMA's
/// 256.
std::optional<llvm::SmallVector<int64_t>> tmaBox(Stream &stream);

/// The tensor maps of one kernel: trailing arguments made on first use, one
/// per (descriptor base argument, box, swizzle), listed in the kernel's
/// `tilec.tensor_maps` in argument order.
class TensorMaps {
public:
  explicit TensorMaps(mlir::FunctionOpInterface kernel) : kernel(kernel) {}

  /// The map of `stream` (which has a tmaBox).
  mlir::Value get(Stream &stream);
  /// The map of `make`'s tensor argument (describesItsArgument) moving
  /// `box` into or out of shared memory in `encoding`.
  mlir::Value get(tile::MakeDescOp make, llvm::ArrayRef<int64_t> box, mlir::Attribute encoding,
                  mlir::Location loc);

private:
  mlir::FunctionOpInterface kernel;
  llvm::DenseMap<std::pair<unsigned, mlir::Type>, mlir::Value> maps;
};

/// Whether this thread is in the first warp of the threads that run the
/// code at `b`: of the kernel's block, or of its warp role (`warp_id`, which
/// ptxas knows is warp-uniform).
mlir::Value firstWarp(mlir::OpBuilder &b, mlir::Location loc);

/// Whether `condition` is firstWarp's test (`warp_id == 0`).
bool isFirstWarp(mlir::Value condition);

/// Thread 0 announces `bytes` on barrier `slot` of `full`; returns a builder
/// inside a branch of warp 0, where TMA copies go. Thread indices are the
/// block's (nvvm tid.x): only for code outside warp roles or in the first.
mlir::OpBuilder announceBytes(mlir::OpBuilder &b, mlir::Location loc, mlir::Value full,
                              mlir::Value slot, int64_t bytes);

/// The tensor maps of `streams` (which all have a tmaBox) and the bytes one
/// iteration of them brings.
struct TMACopies {
  llvm::SmallVector<mlir::Value> maps;
  int64_t bytes = 0;
};
TMACopies tmaCopies(mlir::MutableArrayRef<Stream> streams, TensorMaps &maps);

/// A loop and its streams.
struct StreamedLoop {
  mlir::scf::ForOp loop;
  llvm::SmallVector<Stream> streams;
};

/// Warp-specializes `kernel` (WarpSpecializeStreams.cpp): when every
/// streamed loop is in the kernel's body and all its streams take TMA, the
/// body becomes the consumer role of a `tilegpu.warp_specialize` and a
/// producer warpgroup fills the rings. False, with nothing changed and a
/// warning on the kernel saying why, when it does not apply. `tileSlots`:
/// the slots of a persistent kernel's rings for the blocks a tile reads from
/// its start (Q).
bool warpSpecializeStreams(mlir::FunctionOpInterface kernel,
                           llvm::MutableArrayRef<StreamedLoop> loops, int64_t slots,
                           int64_t tileSlots, TensorMaps &maps, int32_t producerRegisters,
                           int32_t consumerRegisters);

} // namespace tilec::tilegpu::streams

#endif // TILEC_LIB_DIALECT_TILEGPU_TRANSFORMS_STREAMS_H
