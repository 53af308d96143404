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
static RegisterAttention prefixLM({
    .name = "prefix_lm",
    .summary = "causal, and every query sees the first `prefix` keys (prefix-LM)",
    .params = {intParam("prefix", 40, "keys every query sees")},
    .variant = [](const Params &p) {
      const int64_t prefix = p.getInt("prefix");
      // The mask written once (the reference runs the same rule on numbers),
      // and the key blocks it leaves: the causal ones widened to the prefix.
      return withMask([=](const auto &at) { return causalRule(at) || at.col < prefix; },
                      [=](const RangeContext &c) { return prefixCausalKeys(c, prefix); });
    },
});
