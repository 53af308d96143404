//===- Numeric.h - element types as numbers and as bytes ------------*- C++ -*-===//
//
// Rounding to bf16/f16/f32 and integer widths, the device encoding of each
// element type, and the comparison of results with a reference. No MLIR, no
// fmt: the GPU-side tools (built without LLVM) use it too.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_NUMERIC_H
#define TILEC_SUPPORT_NUMERIC_H

#include "tilec/DSL/Types.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tilec {

/// The type named `name` ("bf16", "f32", ...), as `toString` spells it.
std::optional<DType> parseDType(std::string_view name);

/// Rounds `value` to the nearest value of `dtype` (ties to even for floats;
/// integers wrap to their width like the hardware).
double roundTo(DType dtype, double value);

/// Row-major strides of `shape`.
std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape);

/// Values as the device stores them (bf16/f16 as 2 bytes, i1 as 1 byte, ...),
/// and back.
std::vector<uint8_t> encode(DType dtype, const std::vector<double> &values);
std::vector<double> decode(DType dtype, const std::vector<uint8_t> &bytes);

/// How an output compares with its reference.
struct Comparison {
  double maxAbsError = 0;
  /// max |got - want| / max |want| over finite expected values.
  double normalizedError = 0;
  int64_t nanCount = 0;      ///< NaN where the reference is not NaN
  int64_t infMismatches = 0; ///< an infinite reference not matched exactly
  int64_t worstIndex = -1;
  bool within(double tolerance) const {
    return nanCount == 0 && infMismatches == 0 && normalizedError <= tolerance;
  }
};
Comparison compareOutputs(const std::vector<double> &got, const std::vector<double> &want);

} // namespace tilec

#endif // TILEC_SUPPORT_NUMERIC_H
