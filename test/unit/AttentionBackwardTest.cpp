//===- AttentionBackwardTest.cpp - the gradients' reference, and a miss ---===//
//
// The double-precision reference gradient, which every backward kernel is
// checked against, is itself checked against central finite differences of
// the reference forward; and a backward kernel built without the variant's
// score modifier must fail the comparison (so the check can fail).
//
//===----------------------------------------------------------------------===//

#include "attention/FlashAttention.h"

#include "tilec/DSL/DSL.h"
#include "tilec/InitAll.h"
#include "tilec/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace tilec;
using namespace tilec::attention;
using namespace tilec::dsl;

namespace {

/// Soft-capping, ALiBi-like bias and a causal mask at once, the rules in
/// plain C++ (the reference only reads these).
AttentionVariant cappedCausalBias() {
  return {.scoreModRef = [](double s, const RefAt &at) {
            return 2.5 * std::tanh(s / 2.5) +
                   0.1 * (at.head + 1) * static_cast<double>(at.col - at.row);
          },
          .maskRef = [](const RefAt &at) {
            return causalMaskRef(at.row, at.col, at.seqQ, at.seqK);
          }};
}

/// sum(dO ∘ O) for the reference forward.
double loss(const ReferenceAttention &ref, const std::vector<double> &q,
            const std::vector<double> &k, const std::vector<double> &v,
            const std::vector<double> &dO) {
  std::vector<double> o, lse;
  ref.forward(q, k, v, o, lse);
  double sum = 0;
  for (size_t i = 0; i < o.size(); ++i)
    sum += o[i] * dO[i];
  return sum;
}

void expectGradientsMatchFiniteDifferences(const AttentionVariant &variant, int64_t seqQ,
                                           int64_t seqK, int64_t group) {
  const int64_t bhQ = 2, d = 4, bhK = bhQ / group;
  ReferenceAttention ref{bhQ, seqQ, seqK, d, group, 0.7, &variant};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> dist(-1.5, 1.5);
  auto random = [&](int64_t n) {
    std::vector<double> x(n);
    for (double &e : x) e = dist(rng);
    return x;
  };
  std::vector<double> q = random(bhQ * seqQ * d), k = random(bhK * seqK * d),
                      v = random(bhK * seqK * d), dO = random(bhQ * seqQ * d);
  std::vector<double> dq, dk, dv;
  ref.backward(q, k, v, dO, dq, dk, dv);

  auto check = [&](std::vector<double> &x, const std::vector<double> &grad, const char *name) {
    for (size_t i = 0; i < x.size(); ++i) {
      const double saved = x[i], h = 1e-5;
      x[i] = saved + h;
      double up = loss(ref, q, k, v, dO);
      x[i] = saved - h;
      double down = loss(ref, q, k, v, dO);
      x[i] = saved;
      EXPECT_NEAR(grad[i], (up - down) / (2 * h), 1e-6) << name << "[" << i << "]";
    }
  };
  check(q, dq, "dq");
  check(k, dk, "dk");
  check(v, dv, "dv");
}

TEST(AttentionBackwardReference, MatchesFiniteDifferences) {
  expectGradientsMatchFiniteDifferences(AttentionVariant{}, 5, 7, 1);
}

TEST(AttentionBackwardReference, MatchesFiniteDifferencesWithModifierMaskAndEmptyRows) {
  // seq_q > seq_k with the causal mask: the first two rows see no key.
  expectGradientsMatchFiniteDifferences(cappedCausalBias(), 7, 5, 1);
}

TEST(AttentionBackwardReference, MatchesFiniteDifferencesForSharedKeyValueHeads) {
  expectGradientsMatchFiniteDifferences(cappedCausalBias(), 6, 6, 2);
}

/// The dQ kernel built from `built`, run on the plan of `reference`: the
/// worst normalized error.
double dqErrorAgainst(const AttentionVariant &built, const AttentionVariant &reference) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  AttentionConfig cfg;
  cfg.blockM = cfg.blockN = 32;
  KernelBuilder k(context, "dq");
  buildAttentionBackwardQ(k, cfg, built);
  KernelSignature signature = k.signature();
  auto module = k.finish();
  EXPECT_TRUE(module);
  if (!module)
    return -1;
  std::vector<ParamSpec> specs = attentionSizes();
  Params sizes(specs);
  EXPECT_EQ(sizes.setAssignment(specs, "seq_q=40"), "");
  EXPECT_EQ(sizes.setAssignment(specs, "seq_k=50"), "");
  EXPECT_EQ(sizes.setAssignment(specs, "amplitude=3"), "");
  RunPlan plan = planAttentionBackwardQ(cfg, reference, sizes, 5);
  EXPECT_TRUE(interpret(*module, "dq", signature, plan.args, plan.grid, plan.memory));
  Comparison cmp = compareOutputs(plan.memory[plan.expected[0].buffer].data,
                                  plan.expected[0].values);
  EXPECT_EQ(cmp.nanCount, 0);
  return cmp.normalizedError;
}

AttentionVariant softcap(double cap) {
  return {.scoreMod = [cap](Tile s, const BlockContext &) { return tanh(s / cap) * cap; },
          .scoreModRef = [cap](double s, const RefAt &) {
            return cap * std::tanh(s / cap);
          }};
}

TEST(AttentionBackwardKernel, SoftcapGradientMatchesItsReference) {
  EXPECT_LT(dqErrorAgainst(softcap(2.0), softcap(2.0)), 3e-2);
}

TEST(AttentionBackwardKernel, BuiltWithoutTheModifierFails) {
  // Scores of up to ~10 against a cap of 2: the cap matters. The kernel
  // built without the modifier must miss the reference that has it.
  AttentionVariant withoutModifier = softcap(2.0);
  withoutModifier.scoreMod = {};
  AttentionVariant reference = softcap(2.0);
  EXPECT_GT(dqErrorAgainst(withoutModifier, reference), 0.1);
}

} // namespace
