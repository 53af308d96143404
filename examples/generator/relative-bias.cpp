//===- relative-bias.cpp - a user's own generator program -----------------===//
//
// A program outside the compiler that registers its own attention variant
// and links tilec's driver main (tilec_add_generator): it gets the whole
// `tilec` command line (--list-kernels, --kernel=..., --set, --run=cpu, -o)
// for every kernel of the variant: forward, backward, packed batches,
// decoding.
//
//   build/bin/tilec-relative-bias --list-kernels
//   build/bin/tilec-relative-bias --kernel=flash_attention_fwd_relative_bias --run=cpu
//
//===----------------------------------------------------------------------===//

#include "attention/Registration.h"
#include "attention/Rules.h"

using namespace tilec;
using namespace tilec::attention;

// Scores fall off with the distance |i - j|, `slope` per position.
static RegisterAttention relativeBias({
    .name = "relative_bias",
    .summary = "attention with a distance penalty, defined outside the compiler",
    .params = {floatParam("slope", 0.1, "penalty per position of distance")},
    .variant = [](const Params &p) {
      double slope = p.getFloat("slope");
      // Written once: the kernels run it on tiles, the reference on numbers.
      return withScoreMod([slope](auto s, const auto &at) {
        return s - abs((at.row - at.col).to(DType::F32)) * slope;
      });
    },
    .heavyScores = true, // per-score work: the heavier variants' schedules
});
