//===- Exp2Polynomial.h - exp2 on the FMA pipes, for the softmax -*- C++ -*-===//
//
// The steps by which convert-tilegpu-to-nvvm computes some of the online
// softmax's exp2 without MUFU.EX2 (GpuTarget::exp2OnFma): an SM issues 16
// MUFU results a clock but 128 FMA-pipe ones, and at d = 64 attention needs
// one exp2 for every 256 tensor-core flops, which the tensor cores do in
// the same time as MUFU does the exp2. Cody and Waite's split with a cubic
// for 2^f (FlashAttention-4 does the same on Blackwell):
//
//   x' = max(x, -127)              (-inf and NaN become -127)
//   t  = x' + 1.5·2^23             (rounds: t's low mantissa bits hold j = round(x'))
//   f  = x' - (t - 1.5·2^23)       (f in [-0.5, 0.5], exact)
//   p  = 1 + f·(c1 + f·(c2 + f·c3))
//   2^j = bits((bits(t) << 23) + (127 << 23))   (bits(t) = 0x4B400000 + j; the
//                                   shift drops the 0x4B400000: +0 at j = -127)
//   exp2(x) ~ p · 2^j
//
// Valid for x <= 127 (the softmax's arguments s·t - m are at most a rounding
// error above 0): a masked score (-inf) gives exactly 0 and exp2(0) exactly
// 1, as MUFU.EX2 does; below -126 (where MUFU.EX2 flushes to 0) it gives 0
// or a value under 2^-126. The cubic's coefficients minimize the largest
// relative error on [-0.5, 0.5] with p(0) = 1 (a Lawson iteration over
// 200001 points): 1.0e-4, against the 3.9e-3 of the bf16 that P is rounded
// to before P·V.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_SUPPORT_EXP2POLYNOMIAL_H
#define TILEC_SUPPORT_EXP2POLYNOMIAL_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace tilec::exp2poly {

inline constexpr float kC1 = 0.6932828426361084f;
inline constexpr float kC2 = 0.24220967292785645f;
inline constexpr float kC3 = 0.055008403956890106f;
/// 1.5·2^23: adding it rounds a float in (-2^22, 2^22) to an integer.
inline constexpr float kRound = 12582912.0f;
inline constexpr float kLowest = -127.0f;
inline constexpr int32_t kExponentShift = 23;
inline constexpr int32_t kExponentBias = 127;

/// The lowering's steps in f32 (with one rounding each, and fused
/// multiply-adds where it fuses): what the GPU computes.
inline float evaluate(float x) {
  float clamped = std::fmax(x, kLowest); // fmax(NaN, c) = c, as max.f32
  float t = clamped + kRound;
  float f = clamped - (t - kRound);
  float p = std::fma(std::fma(std::fma(kC3, f, kC2), f, kC1), f, 1.0f);
  uint32_t bits;
  std::memcpy(&bits, &t, sizeof bits);
  uint32_t scaleBits = (bits << kExponentShift) + (uint32_t(kExponentBias) << kExponentShift);
  float scale;
  std::memcpy(&scale, &scaleBits, sizeof scale);
  return p * scale;
}

} // namespace tilec::exp2poly

#endif // TILEC_SUPPORT_EXP2POLYNOMIAL_H
