//===- ExampleSupport.h - random inputs for the examples' CPU runs -*- C++ -*-===//

#ifndef TILEC_EXAMPLES_EXAMPLESUPPORT_H
#define TILEC_EXAMPLES_EXAMPLESUPPORT_H

#include "tilec/Interpreter/Interpreter.h"

#include <random>
#include <string>

namespace tilec::examples {

/// `count` values uniform in [-amplitude, amplitude], rounded to `dtype`.
/// Never all zero: timing or checking on zeros proves nothing.
inline HostBuffer randomBuffer(const std::string &name, DType dtype, int64_t count,
                               std::mt19937_64 &rng, double amplitude = 1.0) {
  std::uniform_real_distribution<double> dist(-amplitude, amplitude);
  HostBuffer buffer{name, dtype, std::vector<double>(count)};
  for (double &x : buffer.data)
    x = roundTo(dtype, dist(rng));
  return buffer;
}

/// An output buffer, filled with a sentinel so unwritten elements show up.
inline HostBuffer outputBuffer(const std::string &name, DType dtype, int64_t count) {
  return HostBuffer{name, dtype, std::vector<double>(count, roundTo(dtype, -12345.0))};
}

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace tilec::examples

#endif // TILEC_EXAMPLES_EXAMPLESUPPORT_H
