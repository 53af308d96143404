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

#include <cmath>

using namespace tilec;
using namespace tilec::attention;

// Scores fall off with the distance |i - j|, `slope` per position.
static RegisterAttention relativeBias({
    .name = "relative_bias",
    .summary = "attention with a distance penalty, defined outside the compiler",
    .params = {floatParam("slope", 0.1, "penalty per position of distance")},
    .variant = [](const Params &p) {
      double slope = p.getFloat("slope");
      return AttentionVariant{
          .scoreMod = [slope](dsl::Tile s, const BlockContext &c) {
            return s - dsl::abs((c.rows.col() - c.cols.row()).to(DType::F32)) * slope;
          },
          .scoreModRef = [slope](double s, int64_t i, int64_t j, int64_t) {
            return s - slope * std::fabs(static_cast<double>(i - j));
          }};
    },
    .heavyScores = true, // per-score work: the heavier variants' schedules
});
