//===- 04-flash-attention.cpp - FlashAttention forward and its variants ---===//
//
// Each variant is a few lines on top of the template in
// attention/FlashAttention.h: a mask or a score modifier written once
// (attention/Rules.h: the kernels and the reference both instantiate it) and
// a key range, registered with attention/Registration.h.
//
//===----------------------------------------------------------------------===//

#include "attention/Registration.h"
#include "attention/Rules.h"

#include <algorithm>
#include <random>

using namespace tilec;
using namespace tilec::dsl;
using namespace tilec::attention;

namespace {

/// Document ids for CPU runs: per batch row, documents of random lengths
/// (1 to a third of the sequence, some of one position) numbered in order,
/// or those ids shuffled over the positions.
std::vector<double> documentIds(const InputFill &f, bool shuffled) {
  const int64_t batch = f.shape[0], n = f.shape[1];
  std::vector<double> ids;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<double> row;
    std::uniform_int_distribution<int64_t> length(1, std::max<int64_t>(1, n / 3));
    for (int64_t doc = 0; static_cast<int64_t>(row.size()) < n; ++doc)
      row.insert(row.end(), std::min(length(f.rng), n - static_cast<int64_t>(row.size())),
                 static_cast<double>(doc));
    if (shuffled)
      std::shuffle(row.begin(), row.end(), f.rng);
    ids.insert(ids.end(), row.begin(), row.end());
  }
  return ids;
}

// Non-causal: no mask beyond the sequence end.
AttentionVariant dense(const Params &) { return {}; }

// Each rule is written once (attention/Rules.h): the kernels instantiate it
// on tiles, the double-precision reference on numbers.

// Causal: keys up to the diagonal; blocks past it are never visited.
AttentionVariant causal(const Params &) {
  return withMask([](const auto &at) { return causalRule(at); },
                  [](const RangeContext &c) { return causalKeys(c); });
}

// Sliding window: causal, and at most `window` keys back.
AttentionVariant slidingWindow(const Params &p) {
  int64_t w = p.getInt("window");
  return withMask([w](const auto &at) { return causalRule(at, w); },
                  [w](const RangeContext &c) { return causalKeys(c, w); });
}

// ALiBi: a linear bias slope_h · (j - i), slope_h = 2^(-8 (h mod H + 1) / H).
AttentionVariant alibi(const Params &p) {
  int64_t heads = p.getInt("heads");
  return withScoreMod([heads](auto s, const auto &at) {
    auto slope = exp2((at.head % heads + 1).to(DType::F32) * (-8.0 / heads));
    return s + slope * (at.col - at.row).to(DType::F32);
  });
}

// Soft-capping: cap · tanh(s / cap) keeps logits within (-cap, cap).
AttentionVariant softcap(const Params &p) {
  double cap = p.getFloat("cap");
  return withScoreMod([cap](auto s, const auto &) { return tanh(s / cap) * cap; });
}

// Prefix-LM: causal, and every query sees the first `prefix` keys.
AttentionVariant prefixLM(const Params &p) {
  int64_t prefix = p.getInt("prefix");
  return withMask([prefix](const auto &at) { return causalRule(at) || at.col < prefix; },
                  [prefix](const RangeContext &c) { return prefixCausalKeys(c, prefix); });
}

// Gemma-2's local layers: a sliding window and soft-capped scores.
AttentionVariant windowSoftcap(const Params &p) {
  double cap = p.getFloat("cap");
  return withScoreMod([cap](auto s, const auto &) { return tanh(s / cap) * cap; },
                      slidingWindow(p));
}

// Document masking (packed documents in one sequence): a query sees the
// keys of its own document. The document id of every position comes at run
// time, `doc` [batch, seq_k] i32 (the queries are the last seq_q positions,
// aligned as the causal mask is); any ids, sorted or not.
AttentionVariant document(const Params &p) {
  AttentionVariant v = withMask([](const auto &at) {
    auto doc = at.input("doc");
    return doc(at.batch, at.row + (at.seqK - at.seqQ)) == doc(at.batch, at.col);
  });
  bool shuffled = p.getInt("shuffled") != 0;
  v.inputs = {{.name = "doc",
               .dtype = DType::I32,
               .shape = {InputDim::batch(), InputDim::seqK()},
               .fill = [shuffled](const InputFill &f) { return documentIds(f, shuffled); }}};
  return v;
}

// A learned relative-position bias (T5-like, clipped at `max_distance`):
// score + bias[h, clamp(j - i, -D, D) + D], the table [heads, 2D + 1] f32
// given at run time.
AttentionVariant relativeBiasTable(const Params &p) {
  int64_t D = p.getInt("max_distance");
  AttentionVariant v = withScoreMod([D](auto s, const auto &at) {
    auto offset = min(max(at.col - at.row, -D), D) + D;
    return s + at.input("bias")(at.qhead, offset);
  });
  v.inputs = {{.name = "bias",
               .dtype = DType::F32,
               .shape = {InputDim::heads(), InputDim::fixed(2 * D + 1)}}};
  return v;
}

RegisterAttention denseKernels({.name = "",
                                 .summary = "FlashAttention forward, non-causal",
                                 .variant = dense});
RegisterAttention causalKernels({
    .name = "causal",
    .summary = "causal (bottom-right aligned); blocks past the diagonal skipped",
    .variant = causal,
    .persistentWithMask = true,
});
RegisterAttention slidingWindowKernels({
    .name = "sliding_window",
    .summary = "causal with a window of `window` keys back",
    .params = {intParam("window", 48, "keys visible behind the diagonal")},
    .variant = slidingWindow,
    // The causal kernel's fast schedule on wgmma: with windows of a
    // thousand keys and more only the diagonal and window-start blocks are
    // masked (1.01-1.15x FlexAttention at window 1024, was 0.93x on the
    // heavier variants' 64-row tiles; bench/RESULTS.md, session 12). On
    // mma.sync the heavier tiles (128-row ones spill at d = 64).
    .heavyOnMmaSync = true,
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
    // The fast sm_90a schedules since its bias (index arithmetic and a
    // cast) is made again in the scores' layout instead of exchanged through
    // shared memory (tilegpu-lower-conversions); mma.sync keeps the smaller
    // tiles.
    .heavyOnMmaSync = true,
});
RegisterAttention prefixLMKernels({
    .name = "prefix_lm",
    .summary = "prefix-LM: causal, and every query sees the first `prefix` keys",
    .params = {intParam("prefix", 1024, "keys every query sees (the prompt)")},
    .variant = prefixLM,
});
RegisterAttention windowSoftcapKernels({
    .name = "sliding_window_softcap",
    .summary = "Gemma-2's local attention: a window of `window` keys back, tanh-capped scores",
    .params = {intParam("window", 4096, "keys visible behind the diagonal"),
               floatParam("cap", 50, "logit cap")},
    .variant = windowSoftcap,
    // The fast sm_90a schedules, as the window and soft-capping each have:
    // spill-free at d = 64-256 and 1.22-1.28x the heavier tiles it had at
    // d = 64 and 128, 2.3-2.4x at d = 256 (H100, bench/RESULTS.md, session
    // 48, call M). mma.sync keeps the smaller tiles, as the window does
    // (not measured there).
    .heavyOnMmaSync = true,
});
RegisterAttention documentKernels({
    .name = "document",
    .summary = "document masking: each query sees its own document's keys (ids at run time)",
    .params = {intParam("shuffled", 0,
                        "CPU runs only: document ids shuffled over the positions (1) or in "
                        "runs (0); the kernels are the same")},
    .variant = document,
    // Two gathers per block beside the scores: mma.sync's 128-row tiles
    // spill for them at d = 64; wgmma's fast schedules do not.
    .heavyOnMmaSync = true,
    // No key range says which blocks a query sees: the forward visits the
    // blocks flash_attention_block_mask_document lists.
    .blockMask = true,
});
RegisterAttention relativeBiasTableKernels({
    .name = "relative_bias_table",
    .summary = "a learned relative-position bias table per head (given at run time)",
    .params = {intParam("max_distance", 128, "distances beyond it share the last bias", 1)},
    .variant = relativeBiasTable,
    // A gather per score: the fast d = 128 schedule spills 64 bytes for its
    // addresses (168 registers a consumer thread), so the heavier tiles.
    .heavyScores = true,
});
RegisterAttention softcapKernels({
    .name = "softcap",
    .summary = "tanh soft-capping of the scores",
    .params = {floatParam("cap", 20, "logit cap")},
    .variant = softcap,
});

} // namespace
