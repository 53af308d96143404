//===- prefix-lm.cpp - a variant defined outside tilec --------------------===//
//
// Prefix-LM attention: causal, but every query also sees the first `prefix`
// keys (the prompt, attended bidirectionally). Registered with tilec's
// attention/Registration.h, it gets every attention kernel: forward,
// backward, packed batches, decoding.
//
//===----------------------------------------------------------------------===//

#include "attention/Registration.h"
#include "attention/Rules.h"

using namespace tilec;
using namespace tilec::attention;
using dsl::Tile;

static RegisterAttention prefixLM({
    .name = "prefix_lm",
    .summary = "causal, and every query sees the first `prefix` keys (prefix-LM)",
    .params = {intParam("prefix", 40, "keys every query sees")},
    .variant = [](const Params &p) {
      const int64_t prefix = p.getInt("prefix");
      // The mask written once (the reference runs the same rule on numbers);
      // the key range: the causal one, widened to the prefix.
      return withMask([=](const auto &at) { return causalRule(at) || at.col < prefix; },
                      [=](const RangeContext &c) {
                        KeyRange r = causalKeys(c);
                        Tile prefixEnd = min(c.k.constant(prefix, DType::I32), c.seqK);
                        r.hi = max(r.hi, prefixEnd);
                        r.fullHi = max(r.fullHi, prefixEnd / c.blockN * c.blockN); // unmasked
                        return r;
                      });
    },
});
