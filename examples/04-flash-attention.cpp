//===- 04-flash-attention.cpp - FlashAttention forward and its variants ---===//
//
// Each variant is a few lines on top of the template in
// attention/FlashAttention.h: a mask, a score modifier, a key range, and the
// same rule in plain C++ for the reference.
//
//===----------------------------------------------------------------------===//

#include "attention/Registration.h"

#include <cmath>

using namespace tilec;
using namespace tilec::dsl;
using namespace tilec::attention;

namespace {

// Non-causal: no mask beyond the sequence end.
AttentionVariant dense(const Params &) { return {}; }

// Causal: keys up to the diagonal; blocks past it are never visited.
AttentionVariant causal(const Params &) {
  return {.mask = [](const BlockContext &c) { return causalMask(c); },
          .keyRange = [](const RangeContext &c) { return causalKeys(c); },
          .maskRef = [](int64_t i, int64_t j, int64_t sq, int64_t sk) {
            return causalMaskRef(i, j, sq, sk);
          }};
}

// Sliding window: causal, and at most `window` keys back.
AttentionVariant slidingWindow(const Params &p) {
  int64_t w = p.getInt("window");
  return {.mask = [w](const BlockContext &c) { return causalMask(c, w); },
          .keyRange = [w](const RangeContext &c) { return causalKeys(c, w); },
          .maskRef = [w](int64_t i, int64_t j, int64_t sq, int64_t sk) {
            return causalMaskRef(i, j, sq, sk, w);
          }};
}

// ALiBi: a linear bias slope_h · (j - i), slope_h = 2^(-8 (h mod H + 1) / H).
double alibiSlope(int64_t head, int64_t heads) {
  return std::exp2(-8.0 * static_cast<double>(head % heads + 1) / static_cast<double>(heads));
}
AttentionVariant alibi(const Params &p) {
  int64_t heads = p.getInt("heads");
  return {.scoreMod = [heads](Tile s, const BlockContext &c) {
            Tile slope = exp2((c.head % heads + 1).to(DType::F32) * (-8.0 / heads));
            return s + slope * (c.cols.row() - c.rows.col()).to(DType::F32);
          },
          .scoreModRef = [heads](double s, int64_t i, int64_t j, int64_t h) {
            return s + alibiSlope(h, heads) * static_cast<double>(j - i);
          }};
}

// Soft-capping: cap · tanh(s / cap) keeps logits within (-cap, cap).
AttentionVariant softcap(const Params &p) {
  double cap = p.getFloat("cap");
  return {.scoreMod = [cap](Tile s, const BlockContext &) { return tanh(s / cap) * cap; },
          .scoreModRef = [cap](double s, int64_t, int64_t, int64_t) {
            return cap * std::tanh(s / cap);
          }};
}

RegisterAttention denseKernels({.name = "",
                                 .summary = "FlashAttention forward, non-causal",
                                 .variant = dense});
RegisterAttention causalKernels({
    .name = "causal",
    .summary = "causal (bottom-right aligned); blocks past the diagonal skipped",
    .variant = causal,
});
RegisterAttention slidingWindowKernels({
    .name = "sliding_window",
    .summary = "causal with a window of `window` keys back",
    .params = {intParam("window", 48, "keys visible behind the diagonal")},
    .variant = slidingWindow,
    .heavyScores = true,
});
RegisterAttention gqaKernels({
    .name = "gqa",
    .summary = "grouped-query attention: `group` query heads share a K/V head (MQA: all)",
    .params = {intParam("group", 2, "query heads per K/V head", 1)},
    .variant = dense,
    .tune = [](AttentionConfig &cfg, const Params &p) { cfg.group = p.getInt("group"); },
    .decode = false, // flash_attention_decode packs any group already
});
RegisterAttention alibiKernels({
    .name = "alibi",
    .summary = "ALiBi linear position bias per head",
    .params = {intParam("heads", 2, "query heads (slopes repeat per batch)", 1)},
    .variant = alibi,
    .heavyScores = true,
});
RegisterAttention softcapKernels({
    .name = "softcap",
    .summary = "tanh soft-capping of the scores",
    .params = {floatParam("cap", 20, "logit cap")},
    .variant = softcap,
});

} // namespace
