//===- Interpreter.h - run tile kernels on the CPU --------------*- C++ -*-===//
//
// The reference semantics of the tile dialect (plus the arith, math and scf
// ops kernels use): runs a kernel over its whole grid on host buffers.
// bf16/f16 values are rounded as the GPU stores them, dot products and
// reductions accumulate in f32, descriptor bounds and masks are honored, and
// an unmasked access outside a buffer is an error at the op, not a crash.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_INTERPRETER_INTERPRETER_H
#define TILEC_INTERPRETER_INTERPRETER_H

#include "tilec/DSL/Types.h"
#include "tilec/Support/Numeric.h"

#include <array>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace tilec {

/// Host memory the kernel reads and writes. Elements are kept as doubles that
/// always hold a value representable in `dtype`.
struct HostBuffer {
  std::string name;
  DType dtype;
  std::vector<double> data;
};

/// How a launch binds one kernel parameter.
struct TensorBinding {
  int buffer;                   ///< index into the memory vector
  std::vector<int64_t> shape;   ///< outermost first
  std::vector<int64_t> strides; ///< in elements
  int64_t offset = 0;           ///< first element within the buffer
};
struct PointerBinding {
  int buffer;
  int64_t offset = 0;
};
using ArgBinding = std::variant<TensorBinding, PointerBinding, double>;

/// How many programs run a persistent kernel (tile-persistent-grid) on the
/// interpreter: each loops over several of the logical ones.
inline constexpr int64_t kInterpretedPersistentPrograms = 3;

/// Runs the kernel `kernelName` of `module` (signature `signature`, bound to
/// `args`) for every program of `grid` (for a persistent kernel, the
/// logical grid, run by kInterpretedPersistentPrograms). Problems are reported as MLIR
/// diagnostics at the failing op (unsupported op, out-of-bounds access,
/// argument mismatch) and make the result false.
bool interpret(mlir::ModuleOp module, const std::string &kernelName,
               const KernelSignature &signature, const std::vector<ArgBinding> &args,
               std::array<int64_t, 3> grid, std::vector<HostBuffer> &memory);

} // namespace tilec

#endif // TILEC_INTERPRETER_INTERPRETER_H
