//===- DSL.h - write tile kernels in C++ ------------------------*- C++ -*-===//
//
// A small DSL embedded in C++ that builds tile-dialect kernels. Values are
// cheap handles (`Tile`) with operators; reductions, `dot`, `exp2` and the
// online softmax are free functions; loops carry state through lambdas:
//
//   KernelBuilder k(ctx, "vector_add");
//   Tile x = k.pointer("x", DType::F32), y = ..., n = k.scalar("n", DType::I32);
//   Tile offs = k.programId(0) * 1024 + k.iota(1024);
//   Tile mask = offs < n;
//   store(out + offs, load(x + offs, mask) + load(y + offs, mask), mask);
//
// Every call records the caller's C++ source location, so a misuse (shapes,
// element types, ranks) is reported as an MLIR diagnostic at the user's own
// `file:line`, and `finish()` fails; nothing asserts or throws.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DSL_DSL_H
#define TILEC_DSL_DSL_H

#include "tilec/DSL/Types.h"

#include "mlir/IR/Value.h"

#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

namespace mlir {
class MLIRContext;
class ModuleOp;
template <typename OpTy> class OwningOpRef;
} // namespace mlir

namespace tilec::dsl {

using tilec::DType;
using Where = std::source_location;
using Shape = std::vector<int64_t>;

class KernelBuilder;

/// A scalar or a tile (a ranked tensor of static shape) of numbers or
/// pointers, inside a kernel under construction.
class Tile {
public:
  Tile() = default;

  bool isScalar() const;
  bool isPointer() const;
  /// The element type; for pointers, the pointee type.
  DType dtype() const;
  /// The tile's shape; empty for a scalar.
  Shape shape() const;
  int64_t rank() const { return static_cast<int64_t>(shape().size()); }

  /// Element type conversion (round to nearest even where it narrows).
  Tile to(DType type, Where where = Where::current()) const;
  /// Transpose of a 2-D tile.
  Tile t(Where where = Where::current()) const;
  /// A 1-D tile of per-row values as an Nx1 column (broadcasts along rows).
  Tile col(Where where = Where::current()) const;
  /// A 1-D tile as a 1xN row (broadcasts along columns).
  Tile row(Where where = Where::current()) const;
  Tile reshape(Shape shape, Where where = Where::current()) const;
  Tile broadcastTo(Shape shape, Where where = Where::current()) const;

  mlir::Value value() const { return val; }
  KernelBuilder *builder() const { return kb; }
  /// False for a default-constructed handle.
  bool valid() const { return static_cast<bool>(val); }

private:
  friend class KernelBuilder;
  Tile(KernelBuilder *kb, mlir::Value val) : kb(kb), val(val) {}
  KernelBuilder *kb = nullptr;
  mlir::Value val;
};

/// An operand of an operator or DSL function: a Tile or a C++ number, with
/// the location of the user's expression (captured by this implicit
/// conversion, which happens at the call site).
struct Operand {
  Operand(const Tile &tile, Where where = Where::current()) : tile(tile), where(where) {}
  Operand(double number, Where where = Where::current()) : number(number), where(where) {}
  Operand(float number, Where where = Where::current()) : number(number), where(where) {}
  Operand(int number, Where where = Where::current())
      : number(number), isInteger(true), where(where) {}
  Operand(int64_t number, Where where = Where::current())
      : number(static_cast<double>(number)), isInteger(true), where(where) {}

  Tile tile;
  double number = 0;
  bool isInteger = false;
  Where where;
};

// Arithmetic, elementwise with numpy-style broadcasting of size-1 dimensions
// and of scalars. A pointer plus an integer offset advances the pointer.
Tile operator+(Operand a, Operand b);
Tile operator-(Operand a, Operand b);
Tile operator*(Operand a, Operand b);
Tile operator/(Operand a, Operand b);
Tile operator%(Operand a, Operand b);
Tile operator-(Operand a);
// Comparisons give i1 tiles; `&&`, `||`, `!` combine them.
Tile operator<(Operand a, Operand b);
Tile operator<=(Operand a, Operand b);
Tile operator>(Operand a, Operand b);
Tile operator>=(Operand a, Operand b);
Tile operator==(Operand a, Operand b);
Tile operator!=(Operand a, Operand b);
Tile operator&&(Operand a, Operand b);
Tile operator||(Operand a, Operand b);
Tile operator!(Operand a);
/// `0 <= i && i < n` for integers, as one unsigned comparison: `n` must not
/// be negative (a tensor's size, say).
Tile inRange(Operand i, Operand n);

Tile max(Operand a, Operand b);
Tile min(Operand a, Operand b);
/// `cond ? a : b`, elementwise.
Tile where(Operand cond, Operand a, Operand b);
Tile exp2(Operand x);
Tile exp(Operand x);
Tile log2(Operand x);
Tile tanh(Operand x);
Tile sqrt(Operand x);
Tile abs(Operand x);

/// dy/dx, elementwise: `y` computed from `x` by elementwise arithmetic and
/// math (+ - * /, negation, max, min, where, exp, exp2, log, log2, tanh,
/// sqrt, abs, float casts) and shape ops (broadcast, row/col, reshape,
/// transpose), differentiated in forward mode over the IR between them.
/// This is how a score modifier written once gets its derivative for the
/// attention backward. The result has y's shape (zero where y does not
/// depend on x); an op on the way that is not elementwise (dot, reductions,
/// loads, loops) is reported at its own line.
Tile derivative(const Tile &y, const Tile &x, Where where = Where::current());

/// `a · b + acc` on tensor cores: a MxK, b KxN (both bf16, both f16 or both
/// f32), acc MxN f32.
Tile dot(Operand a, Operand b, Operand acc);
/// Reductions of a 2-D tile along its rows (one value per row) and of a 1-D
/// tile to a scalar.
Tile rowMax(Operand x);
Tile rowSum(Operand x);
Tile rowMin(Operand x);
enum class Reduction { Sum, Max, Min };
Tile reduce(Reduction kind, Operand x, int axis, Where where = Where::current());

/// One step of the streaming softmax (see tile.online_softmax).
struct SoftmaxStep {
  Tile mNew;  ///< new running row max, log2 units
  Tile p;     ///< unnormalized probabilities exp2(s·scale·log2e − mNew)
  Tile alpha; ///< rescale factor for the old sum and accumulator
};
SoftmaxStep onlineSoftmax(Operand scores, Operand runningMax, double scale);
/// The same step over a block of scores in parts side by side (a key block
/// that is not a power of two as power-of-two parts): the maximum over all
/// of them, one p per part.
struct SoftmaxParts {
  Tile mNew;
  std::vector<Tile> p;
  Tile alpha;
};
/// With `rescaleThreshold` τ > 0 a row keeps its old maximum unless the
/// block's exceeds it by more than τ (log2 units; FlashAttention-4's lazy
/// rescale): alpha is then exactly 1 in most steps, and scaleRows skips them.
SoftmaxParts onlineSoftmax(const std::vector<Tile> &scores, Operand runningMax, double scale,
                           double rescaleThreshold = 0);
/// Each row of a 2-D f32 tile times its factor (x · factor.col()): the
/// online softmax's rescale of the accumulator. On the GPU a warp whose
/// factors are all exactly 1 skips the multiplies (tile.scale_rows).
Tile scaleRows(Operand x, Operand factor);

/// Loads and stores through a tile of pointers; masked-off lanes are not
/// touched and read `other` (0 without it). load() of a single pointer
/// reads one value for the whole program (a scalar mask may guard it).
Tile load(Operand pointers, std::optional<Operand> mask = std::nullopt,
          std::optional<Operand> other = std::nullopt);
void store(Operand pointers, Operand value, std::optional<Operand> mask = std::nullopt);

enum class Padding { Zero, NaN };
/// What a kernel knows of a tensor parameter's innermost stride.
enum class InnerStride { Any, One };

/// A block-shaped window onto a tensor argument (a `!tile.desc`).
class TensorDesc {
public:
  TensorDesc() = default;
  /// The block at element offsets `offsets` (one per dimension); elements
  /// outside the tensor read as the padding value.
  Tile load(std::vector<Operand> offsets, Padding padding = Padding::Zero,
            Where where = Where::current()) const;
  /// Writes `value` (of the block shape); elements outside the tensor are dropped.
  void store(std::vector<Operand> offsets, Operand value, Where where = Where::current()) const;
  /// Adds `value` (f32, of the block shape) into the block, each element
  /// atomically: programs adding into the same elements all count, in an
  /// unspecified order. Elements outside the tensor are not touched.
  void atomicAdd(std::vector<Operand> offsets, Operand value,
                 Where where = Where::current()) const;
  const Shape &blockShape() const { return block; }

private:
  friend class TensorArg;
  /// store() and atomicAdd(): the checked block tile, or nothing after an error.
  std::optional<std::pair<std::vector<mlir::Value>, Tile>>
  blockToWrite(const char *what, std::vector<Operand> &offsets, Operand &value,
               Where where) const;
  TensorDesc(KernelBuilder *kb, mlir::Value desc, Shape block)
      : kb(kb), desc(desc), block(std::move(block)) {}
  KernelBuilder *kb = nullptr;
  mlir::Value desc;
  Shape block;
};

/// A tensor parameter of the kernel: base pointer, runtime shape and strides.
class TensorArg {
public:
  TensorArg() = default;
  Tile base() const { return basePtr; }
  /// Runtime size (i32) and stride (i64, elements) of dimension `dim`.
  Tile dim(unsigned dim) const { return dims.at(dim); }
  Tile stride(unsigned dim) const { return strides.at(dim); }
  unsigned rank() const { return static_cast<unsigned>(dims.size()); }
  /// A descriptor that moves blocks of shape `block` (rank equal to the tensor's).
  TensorDesc desc(Shape block, Where where = Where::current()) const;
  /// Rows [start, start + size) of dimension `dim` (i32 scalars) as a tensor
  /// of their own: its base advanced by start·stride, that dimension `size`
  /// long. A block read past its end is padding and one written past it is
  /// dropped, as at the edges of the whole tensor (one sequence of a packed
  /// batch, say). The caller keeps the part inside the tensor.
  TensorArg slice(unsigned dim, Operand start, Operand size,
                  Where where = Where::current()) const;
  /// Launches must pass this parameter with `size` elements along `dim`
  /// (the metadata's "sizes"; the runtime refuses others). The kernel
  /// still reads the size from its arguments.
  void requireSize(unsigned dim, int64_t size, Where where = Where::current()) const;
  /// Requires dimension `dim` to have the size of `other`'s dimension
  /// `otherDim` at launch (the metadata's "sizes_of"; the runtime refuses
  /// other shapes): a tensor indexed by what another one's shape counts.
  void requireSizeOf(unsigned dim, const TensorArg &other, unsigned otherDim,
                     Where where = Where::current()) const;

private:
  friend class KernelBuilder;
  KernelBuilder *kb = nullptr;
  size_t param = 0; ///< index in the kernel's signature
  Tile basePtr;
  std::vector<Tile> dims, strides;
};

/// Builds one kernel: declare parameters, build the body with the handles,
/// then `finish()`.
class KernelBuilder {
public:
  /// `context` gets the dialects the DSL uses loaded; it must outlive the module.
  KernelBuilder(mlir::MLIRContext &context, const std::string &name,
                Where where = Where::current());
  ~KernelBuilder();
  KernelBuilder(const KernelBuilder &) = delete;
  KernelBuilder &operator=(const KernelBuilder &) = delete;

  // Parameters, in the order of the kernel's interface.
  TensorArg tensor(const std::string &name, DType type, unsigned rank,
                   Where where = Where::current());
  /// The same, its innermost stride as `inner` says: InnerStride::One
  /// makes stride(rank - 1) the constant 1 (gathers along that dimension
  /// then address consecutive elements with constant offsets), and launches
  /// must pass that stride (the metadata's "unit_stride").
  TensorArg tensor(const std::string &name, DType type, unsigned rank, InnerStride inner,
                   Where where = Where::current());
  Tile pointer(const std::string &name, DType pointee, Where where = Where::current());
  Tile scalar(const std::string &name, DType type, Where where = Where::current());

  Tile programId(unsigned axis, Where where = Where::current());
  Tile numPrograms(unsigned axis, Where where = Where::current());
  /// Says that the programs along `axis` come longest first: the kernel
  /// maps that axis's index so that the lowest does the most work (a causal
  /// mask's query blocks, last block first). A persistent grid
  /// (--persistent) then runs that axis slowest, in rounds of alternating
  /// direction, so that every program gets its share of long and short
  /// tiles (attribute tilec.longest_first_axis).
  void longestFirst(unsigned axis, Where where = Where::current());
  /// Lets the kernel's dots take B operands whose rows are 32 or 64 bytes
  /// as wgmma (sm_90a, tilegpu lowering), staged in buffers of that swizzle,
  /// rather than mma.sync (attribute tilec.narrow_wgmma): the attention
  /// forward's narrow column tiles (split_columns).
  void narrowWgmmaOperands();
  /// Loop steps whose warpgroups meet once where they would meet twice
  /// (attribute tilec.split_staging): a transposed A operand computed every
  /// step (the backward's dSᵀ) in two shared buffers by the step's parity,
  /// and what the first warp's TMA stores read (dQ's staging) published to
  /// that warp alone.
  void splitStagingBarriers();

  /// Constants: a scalar, a tile of one value, `0, 1, ..., n-1` (i32).
  Tile constant(double value, DType type, Where where = Where::current());
  Tile full(Shape shape, double value, DType type, Where where = Where::current());
  Tile zeros(Shape shape, DType type, Where where = Where::current());
  Tile iota(int64_t n, Where where = Where::current());
  /// A scalar or tile of every element equal to `scalar`, of shape `shape`.
  Tile splat(Operand scalar, Shape shape);

  /// `for (i = lo; i < hi; i += step)` over i32 with loop-carried state:
  /// `body(i, state)` returns the next state (same types as `init`); the
  /// result is the final state.
  using LoopBody = std::function<std::vector<Tile>(Tile, std::vector<Tile>)>;
  std::vector<Tile> forRange(Operand lo, Operand hi, Operand step, std::vector<Tile> init,
                             const LoopBody &body, Where where = Where::current());
  /// `cond ? thenFn() : elseFn()` on a scalar i1, both branches yielding
  /// values of the same types.
  using Branch = std::function<std::vector<Tile>()>;
  std::vector<Tile> ifElse(Operand cond, const Branch &thenFn, const Branch &elseFn,
                           Where where = Where::current());
  /// `if (cond) body();` for side effects only.
  void ifThen(Operand cond, const std::function<void()> &body, Where where = Where::current());

  /// Counts this program's arrival on the i32 counter `counter` points at
  /// (`tensorArg.base() + index`), modulo `count`: true in the program whose
  /// arrival is the `count`-th, after the writes of every arriving program
  /// (made before its arrival) are visible to it; the counter is zero again
  /// then (`tile.last_arrival`). Every thread of the program must reach it.
  Tile lastArrival(Operand counter, Operand count, Where where = Where::current());

  /// Reports a misuse at `where`; `finish()` then fails.
  void error(Where where, const std::string &message);
  bool hasErrors() const;

  /// Ends the kernel and verifies it. On failure the diagnostics have been
  /// emitted through the context's handler (at the user's source lines) and
  /// the result is null.
  mlir::OwningOpRef<mlir::ModuleOp> finish();

  const KernelSignature &signature() const;

  /// Whether float `+`, `-` and `*` built now may be contracted into fused
  /// multiply-adds (see ContractFloats).
  bool contractsFloats() const;

  // Used by the free functions and handles; not needed to write kernels.
  struct Impl;
  Impl &impl() { return *state; }
  Tile wrap(mlir::Value value) { return Tile(this, value); }

private:
  friend class ContractFloats;
  std::unique_ptr<Impl> state;
};

/// While one lives, the float `+`, `-` and `*` that `kb` builds may be
/// contracted into fused multiply-adds (arith's fastmath `contract`, what
/// nvcc does by default): `a * b + c` rounds once instead of twice. The
/// attention template builds score modifiers so (ALiBi's `s + slope * d` is
/// one FFMA per score); other code keeps one rounding per operation.
class ContractFloats {
public:
  explicit ContractFloats(KernelBuilder &kb);
  ~ContractFloats();
  ContractFloats(const ContractFloats &) = delete;
  ContractFloats &operator=(const ContractFloats &) = delete;

private:
  KernelBuilder &kb;
  bool previous;
};

} // namespace tilec::dsl

#endif // TILEC_DSL_DSL_H
