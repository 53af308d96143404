//===- relative-bias.cpp - a user's own generator program -----------------===//
//
// A program outside the compiler that registers its own attention variant
// and links tilec's driver main: it gets the whole `tilec` command line
// (--list-kernels, --kernel=..., --set, --run=cpu, -o) for its kernels.
//
//   build/bin/tilec-relative-bias --list-kernels
//   build/bin/tilec-relative-bias --kernel=relative_bias_attention --run=cpu
//
//===----------------------------------------------------------------------===//

#include "attention/FlashAttention.h"

#include <cmath>

using namespace tilec;
using namespace tilec::attention;

// A learned-looking bias: scores fall off with the distance |i - j|.
static AttentionVariant relativeBias(double slope) {
  return {.scoreMod = [slope](dsl::Tile s, const BlockContext &c) {
            return s - dsl::abs((c.rows.col() - c.cols.row()).to(DType::F32)) * slope;
          },
          .scoreModRef = [slope](double s, int64_t i, int64_t j, int64_t) {
            return s - slope * std::fabs(static_cast<double>(i - j));
          }};
}

// A score modifier with per-score work: the schedule of the heavier variants.
static AttentionSchedule schedule(const Params &p) {
  return defaultSchedule(std::stoll(p.get("head_dim")), /*heavyScores=*/true, p.target());
}

static RegisterKernel registration({
    .name = "relative_bias_attention",
    .summary = "attention with a distance penalty, defined outside the compiler",
    .params = [] {
      std::vector<ParamSpec> params = attentionParams();
      params.push_back({.name = "slope", .type = ParamSpec::Type::Float, .defaultValue = "0.1",
                        .help = "penalty per position of distance"});
      return params;
    }(),
    .build = [](dsl::KernelBuilder &k, const Params &p) {
      buildFlashAttention(k, configFrom(p, schedule(p)), relativeBias(p.getFloat("slope")));
    },
    .sizes = attentionSizes(),
    .plan = [](const Params &p, const Params &sizes, uint64_t seed) {
      return planAttention(configFrom(p, schedule(p)), relativeBias(p.getFloat("slope")), sizes,
                           seed);
    },
    .grid = [](const Params &p) {
      return GridRule{GridDim::shape("q", 1, configFrom(p, schedule(p)).blockM),
                      GridDim::shape("q", 0), GridDim::fixed(1)};
    },
    .numWarps = [](const Params &p) { return schedule(p).warps; },
    .alignedByDefault = true,
    .aInShared = [](const Params &p) { return schedule(p).qInShared; },
    .pipelineStages = [](const Params &p) { return schedule(p).stages; },
    .sm90Pipeline = [](const Params &p) { return schedule(p).sm90; },
});
