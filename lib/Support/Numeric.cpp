//===- Numeric.cpp - element types as numbers and as bytes ----------------===//

#include "tilec/Support/Numeric.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tilec {

std::string_view toString(DType type) {
  switch (type) {
  case DType::I1: return "i1";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::F16: return "f16";
  case DType::BF16: return "bf16";
  case DType::F32: return "f32";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view name) {
  for (DType t : {DType::I1, DType::I32, DType::I64, DType::F16, DType::BF16, DType::F32})
    if (toString(t) == name)
      return t;
  return std::nullopt;
}

bool isFloat(DType type) {
  return type == DType::F16 || type == DType::BF16 || type == DType::F32;
}

unsigned byteSize(DType type) {
  switch (type) {
  case DType::I1: return 1;
  case DType::F16:
  case DType::BF16: return 2;
  case DType::I32:
  case DType::F32: return 4;
  case DType::I64: return 8;
  }
  return 0;
}

static uint16_t bf16Bits(double value) {
  float f = static_cast<float>(value);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  if (std::isnan(f))
    return static_cast<uint16_t>((bits >> 16) | 0x40); // a quiet NaN
  bits += 0x7FFFu + ((bits >> 16) & 1u); // round to nearest, ties to even
  return static_cast<uint16_t>(bits >> 16);
}

static double fromBF16Bits(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

/// Rounds to the nearest f16 value (ties to even), straight from double.
static double roundToF16(double value) {
  if (std::isnan(value) || std::isinf(value) || value == 0)
    return value;
  double magnitude = std::fabs(value);
  int exponent = std::max(std::ilogb(magnitude), -14); // subnormals share 2^-24 steps
  double quantum = std::ldexp(1.0, exponent - 10);
  double rounded = std::nearbyint(magnitude / quantum) * quantum;
  if (rounded >= 65520.0 || rounded > 65504.0)
    rounded = std::numeric_limits<double>::infinity();
  return std::copysign(rounded, value);
}

/// The bits of an f16 value (exact: `value` is already an f16 value).
static uint16_t f16Bits(double value) {
  value = roundToF16(value);
  uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  double magnitude = std::fabs(value);
  if (std::isnan(value))
    return 0x7E00;
  if (std::isinf(value))
    return sign | 0x7C00;
  if (magnitude < std::ldexp(1.0, -14))
    return sign | static_cast<uint16_t>(magnitude / std::ldexp(1.0, -24));
  int exponent = std::ilogb(magnitude);
  uint16_t mantissa = static_cast<uint16_t>(std::ldexp(magnitude, 10 - exponent) - 1024);
  return sign | static_cast<uint16_t>((exponent + 15) << 10) | mantissa;
}

static double fromF16Bits(uint16_t bits) {
  bool negative = bits & 0x8000;
  int exponent = (bits >> 10) & 0x1F;
  int mantissa = bits & 0x3FF;
  double magnitude;
  if (exponent == 0)
    magnitude = std::ldexp(mantissa, -24);
  else if (exponent == 31)
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  else
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  return negative ? -magnitude : magnitude;
}

double roundTo(DType dtype, double value) {
  switch (dtype) {
  case DType::F32: return static_cast<float>(value);
  case DType::BF16: return fromBF16Bits(bf16Bits(value));
  case DType::F16: return roundToF16(value);
  case DType::I1: return value != 0 ? 1 : 0;
  case DType::I32: return static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(value)));
  case DType::I64: return static_cast<double>(static_cast<int64_t>(value));
  }
  return value;
}

std::vector<int64_t> contiguousStrides(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

std::vector<uint8_t> encode(DType dtype, const std::vector<double> &values) {
  std::vector<uint8_t> bytes(values.size() * byteSize(dtype));
  uint8_t *out = bytes.data();
  for (double v : values) {
    switch (dtype) {
    case DType::F32: {
      float f = static_cast<float>(v);
      std::memcpy(out, &f, 4);
      break;
    }
    case DType::BF16: {
      uint16_t h = bf16Bits(v);
      std::memcpy(out, &h, 2);
      break;
    }
    case DType::F16: {
      uint16_t h = f16Bits(v);
      std::memcpy(out, &h, 2);
      break;
    }
    case DType::I1: *out = v != 0; break;
    case DType::I32: {
      int32_t i = static_cast<int32_t>(roundTo(DType::I32, v));
      std::memcpy(out, &i, 4);
      break;
    }
    case DType::I64: {
      int64_t i = static_cast<int64_t>(v);
      std::memcpy(out, &i, 8);
      break;
    }
    }
    out += byteSize(dtype);
  }
  return bytes;
}

std::vector<double> decode(DType dtype, const std::vector<uint8_t> &bytes) {
  size_t n = bytes.size() / byteSize(dtype);
  std::vector<double> values(n);
  const uint8_t *in = bytes.data();
  for (size_t i = 0; i < n; ++i, in += byteSize(dtype)) {
    switch (dtype) {
    case DType::F32: {
      float f;
      std::memcpy(&f, in, 4);
      values[i] = f;
      break;
    }
    case DType::BF16: {
      uint16_t h;
      std::memcpy(&h, in, 2);
      values[i] = fromBF16Bits(h);
      break;
    }
    case DType::F16: {
      uint16_t h;
      std::memcpy(&h, in, 2);
      values[i] = fromF16Bits(h);
      break;
    }
    case DType::I1: values[i] = *in != 0; break;
    case DType::I32: {
      int32_t v;
      std::memcpy(&v, in, 4);
      values[i] = v;
      break;
    }
    case DType::I64: {
      int64_t v;
      std::memcpy(&v, in, 8);
      values[i] = static_cast<double>(v);
      break;
    }
    }
  }
  return values;
}

Comparison compareOutputs(const std::vector<double> &got, const std::vector<double> &want) {
  Comparison result;
  double scale = 0;
  for (double w : want)
    if (std::isfinite(w))
      scale = std::max(scale, std::fabs(w));
  size_t n = std::min(got.size(), want.size());
  if (got.size() != want.size())
    result.infMismatches += static_cast<int64_t>(std::max(got.size(), want.size()) - n);
  for (size_t i = 0; i < n; ++i) {
    double g = got[i], w = want[i];
    if (std::isnan(w))
      continue;
    if (std::isnan(g)) {
      ++result.nanCount;
      result.worstIndex = static_cast<int64_t>(i);
      continue;
    }
    if (std::isinf(w) || std::isinf(g)) {
      if (g != w) {
        ++result.infMismatches;
        result.worstIndex = static_cast<int64_t>(i);
      }
      continue;
    }
    double err = std::fabs(g - w);
    if (err > result.maxAbsError) {
      result.maxAbsError = err;
      if (result.nanCount == 0 && result.infMismatches == 0)
        result.worstIndex = static_cast<int64_t>(i);
    }
  }
  result.normalizedError = scale > 0 ? result.maxAbsError / scale : result.maxAbsError;
  return result;
}

} // namespace tilec
