//===- prefix-lm.cpp - a variant defined outside tilec --------------------===//
//
// Prefix-LM attention: causal, but every query also sees the first `prefix`
// keys (the prompt, attended bidirectionally). Registered with tilec's
// attention/Registration.h, it gets every attention kernel: forward,
// backward, packed batches, decoding.
//
//===----------------------------------------------------------------------===//

#include "attention/Registration.h"

using namespace tilec;
using namespace tilec::attention;
using dsl::Tile;

static RegisterAttention prefixLM({
    .name = "prefix_lm",
    .summary = "causal, and every query sees the first `prefix` keys (prefix-LM)",
    .params = {intParam("prefix", 40, "keys every query sees")},
    .variant = [](const Params &p) {
      const int64_t prefix = p.getInt("prefix");
      return AttentionVariant{
          .mask = [=](const BlockContext &c) { return causalMask(c) || (c.cols < prefix).row(); },
          // The causal range, widened to the prefix (unmasked up to its last whole block).
          .keyRange = [=](const RangeContext &c) {
            KeyRange r = causalKeys(c);
            Tile prefixEnd = min(c.k.constant(prefix, DType::I32), c.seqK);
            r.hi = max(r.hi, prefixEnd);
            r.fullHi = max(r.fullHi, prefixEnd / c.blockN * c.blockN);
            return r;
          },
          .maskRef = [=](int64_t i, int64_t j, int64_t sq, int64_t sk) {
            return j < prefix || causalMaskRef(i, j, sq, sk);
          }};
    },
});
