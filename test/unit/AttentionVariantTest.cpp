//===- AttentionVariantTest.cpp - extending the attention template --------===//
//
// A score modifier defined here, outside the examples, proves the extension
// point; a deliberately wrong pairing proves the comparison can fail.
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

using namespace tilec;
using namespace tilec::attention;
using namespace tilec::dsl;

namespace {

/// Runs `built` (a kernel made with `variant`) on the plan of `reference`
/// and returns the worst normalized error of O and LSE; -1 if NaN or
/// misplaced infinities appear.
double runAgainst(const AttentionVariant &built, const AttentionVariant &reference,
                  const AttentionConfig &cfg, std::vector<std::string> sizeSettings) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  KernelBuilder k(context, "attention");
  buildFlashAttention(k, cfg, built);
  KernelSignature signature = k.signature();
  auto module = k.finish();
  EXPECT_TRUE(module);
  if (!module)
    return -1;
  std::vector<ParamSpec> specs = attentionSizes();
  Params sizes(specs);
  for (const std::string &s : sizeSettings)
    EXPECT_EQ(sizes.setAssignment(specs, s), "");
  RunPlan plan = planAttention(cfg, reference, sizes, 7);
  EXPECT_TRUE(interpret(*module, "attention", signature, plan.args, plan.grid, plan.memory));
  double worst = 0;
  for (const RunPlan::Expected &e : plan.expected) {
    Comparison cmp = compareOutputs(plan.memory[e.buffer].data, e.values);
    if (cmp.nanCount || cmp.infMismatches)
      return -1;
    worst = std::max(worst, cmp.normalizedError);
  }
  std::printf("    max relative error %.3g\n", worst);
  return worst;
}

// A relative-position penalty and a per-head offset, with a causal mask:
// FlexAttention's score_mod + mask_mod, written by a user of the template.
AttentionVariant userVariant() {
  return {.scoreMod =
              [](Tile s, const BlockContext &c) {
                Tile distance = (c.rows.col() - c.cols.row()).to(DType::F32);
                return s - abs(distance) * 0.05 + c.head.to(DType::F32) * 0.25;
              },
          .mask = [](const BlockContext &c) { return causalMask(c); },
          .keyRange = [](const RangeContext &c) { return causalKeys(c); },
          .scoreModRef =
              [](double s, int64_t i, int64_t j, int64_t h) {
                return s - std::fabs(static_cast<double>(i - j)) * 0.05 + h * 0.25;
              },
          .maskRef = [](int64_t i, int64_t j, int64_t sq, int64_t sk) {
            return causalMaskRef(i, j, sq, sk);
          }};
}

TEST(AttentionVariant, UserScoreModifierMatchesReference) {
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 32;
  double err = runAgainst(userVariant(), userVariant(), cfg, {"heads=3", "seq_q=75", "seq_k=99"});
  EXPECT_GE(err, 0) << "NaN or misplaced infinities";
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionVariant, EmptyRowsGiveZeroAndMinusInfinity) {
  // seq_q > seq_k with a bottom-right causal mask: the first 40 rows see no key.
  AttentionVariant causal = userVariant();
  causal.scoreMod = nullptr;
  causal.scoreModRef = nullptr;
  AttentionConfig cfg;
  double err = runAgainst(causal, causal, cfg, {"seq_q=100", "seq_k=60"});
  EXPECT_GE(err, 0) << "NaN or misplaced infinities in empty rows";
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionVariant, WrongMaskIsCaught) {
  // The causal kernel against the non-causal reference must not pass.
  AttentionVariant causal = userVariant(), dense = userVariant();
  dense.mask = nullptr;
  dense.keyRange = nullptr;
  dense.maskRef = nullptr;
  AttentionConfig cfg;
  double err = runAgainst(causal, dense, cfg, {"seq_q=64", "seq_k=64"});
  EXPECT_TRUE(err < 0 || err > 0.1) << "a wrong mask went unnoticed (error " << err << ")";
}

TEST(AttentionVariant, LargeLogitsStayFinite) {
  // |scores| around 50 and beyond: the exp2 of un-shifted scores would overflow.
  AttentionConfig cfg;
  AttentionVariant dense;
  double err = runAgainst(dense, dense, cfg, {"seq_q=64", "seq_k=100", "amplitude=10"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
}

} // namespace
