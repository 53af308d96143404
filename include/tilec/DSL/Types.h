//===- Types.h - element types and kernel signatures, without MLIR -*- C++ -*-===//
//
// What the DSL, the interpreter, the registry and (later) the runtime agree on
// about a kernel's interface. Deliberately free of MLIR headers.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_DSL_TYPES_H
#define TILEC_DSL_TYPES_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tilec {

/// Element types a kernel computes with.
enum class DType { I1, I32, I64, F16, BF16, F32 };

std::string_view toString(DType type);
bool isFloat(DType type);
/// Size in bytes of one element in device memory (i1 is stored as a byte).
unsigned byteSize(DType type);

/// One parameter of a kernel as its user sees it. A tensor parameter of rank r
/// becomes 1 + 2r arguments of the compiled function: the base pointer, the
/// shape (r x i32, outermost first) and the strides (r x i64, in elements).
struct KernelParam {
  enum class Kind { Tensor, Pointer, Scalar };
  std::string name;
  Kind kind;
  DType dtype;
  unsigned rank = 0; ///< tensors only
  /// Tensors only: the compiled kernel accesses it with 16-byte vectors and
  /// no fallback (--assume-aligned), so a launch must pass it contiguous and
  /// 16-byte aligned along its last dimension.
  bool aligned = false;
  /// Tensors only: the kernel takes its innermost stride to be 1 (declared
  /// with InnerStride::One: it reads no stride argument there), so a launch
  /// must pass innermost stride 1 (or a size of at most 1 there).
  bool unitStride = false;
  /// Tensors only: the size each dimension must have at launch, -1 where any
  /// size goes (empty: all do). The attention kernels fix their head dims
  /// (TensorArg::requireSize): a tensor of another d would be read with
  /// the wrong scale and, past the tiles' columns, not at all.
  std::vector<int64_t> sizes;
  /// Tensors only: for each dimension, the tensor parameter (and its
  /// dimension) whose size it must have at launch; an empty name where any
  /// size goes (empty: all do). The fused backward's dq_arrivals has one
  /// counter for each key/value head, as many as k's first dimension
  /// (TensorArg::requireSizeOf).
  struct SizeOf {
    std::string param;
    unsigned axis = 0;
  };
  std::vector<SizeOf> sizesOf;

  /// Number of arguments of the compiled function that this parameter takes.
  unsigned numFunctionArgs() const { return kind == Kind::Tensor ? 1 + 2 * rank : 1; }
};

/// Kernel interface, in declaration order.
using KernelSignature = std::vector<KernelParam>;

} // namespace tilec

#endif // TILEC_DSL_TYPES_H
