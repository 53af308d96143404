//===- AttentionVariantTest.cpp - extending the attention template --------===//
//
// A score modifier defined here, outside the examples, proves the extension
// point; a deliberately wrong pairing proves the comparison can fail.
//
//===----------------------------------------------------------------------===//

#include "attention/FlashAttention.h"
#include "attention/Registration.h"
#include "attention/Rules.h"

#include "tilec/DSL/DSL.h"
#include "tilec/InitAll.h"
#include "tilec/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Location.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <tuple>

using namespace tilec;
using namespace tilec::attention;
using namespace tilec::dsl;

namespace {

/// Runs `build`'s kernel on `plan` on the interpreter; the worst normalized
/// error over the expected outputs (-1: NaN or misplaced infinities).
double runPlan(const std::function<void(KernelBuilder &)> &build, RunPlan plan) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  KernelBuilder k(context, "kernel");
  build(k);
  KernelSignature signature = k.signature();
  auto module = k.finish();
  EXPECT_TRUE(module);
  if (!module)
    return -1;
  EXPECT_TRUE(interpret(*module, "kernel", signature, plan.args, plan.grid, plan.memory));
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

Params sizesOf(std::vector<std::string> settings) {
  std::vector<ParamSpec> specs = attentionSizes();
  Params sizes(specs);
  for (const std::string &s : settings)
    EXPECT_EQ(sizes.setAssignment(specs, s), "");
  return sizes;
}

/// Runs `built` (a kernel made with `variant`) on the plan of `reference`
/// and returns the worst normalized error of O and LSE; -1 if NaN or
/// misplaced infinities appear.
double runAgainst(const AttentionVariant &built, const AttentionVariant &reference,
                  const AttentionConfig &cfg, std::vector<std::string> sizeSettings) {
  return runPlan([&](KernelBuilder &k) { buildFlashAttention(k, cfg, built); },
                 planAttention(cfg, reference, sizesOf(std::move(sizeSettings)), 7));
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
              [](double s, const RefAt &at) {
                return s - std::fabs(static_cast<double>(at.row - at.col)) * 0.05 + at.head * 0.25;
              },
          .maskRef = [](const RefAt &at) {
            return causalMaskRef(at.row, at.col, at.seqQ, at.seqK);
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

// The same variant written once (attention/Rules.h): one generic rule per
// score modifier and mask, the reference instantiated from it.
template <class Sign> AttentionVariant writtenOnce(Sign sign) {
  return withScoreMod(
      [sign](auto s, const auto &at) {
        return s - abs(sign(at.row, at.col).to(DType::F32)) * 0.05 +
               at.head.to(DType::F32) * 0.25 + (at.row - at.col).to(DType::F32) * 0.01;
      },
      withMask([](const auto &at) { return causalRule(at); },
               [](const RangeContext &c) { return causalKeys(c); }));
}

TEST(AttentionVariant, WrittenOnceMatchesItsReference) {
  auto distance = [](const auto &row, const auto &col) { return row - col; };
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 32;
  double err = runAgainst(writtenOnce(distance), writtenOnce(distance), cfg,
                          {"heads=3", "seq_q=75", "seq_k=99"});
  EXPECT_GE(err, 0) << "NaN or misplaced infinities";
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionVariant, WrittenOnceReferenceIsTheRuleOnNumbers) {
  // The reference of a rule written once is the rule itself on numbers: the
  // causal rule agrees with the hand-written causalMaskRef everywhere, and a
  // score modifier sees row, column and head where the reference puts them.
  AttentionVariant causal = withMask([](const auto &at) { return causalRule(at); });
  AttentionVariant window = withMask([](const auto &at) { return causalRule(at, 3); });
  for (int64_t sq : {5, 9})
    for (int64_t sk : {4, 9, 12})
      for (int64_t i = 0; i < sq; ++i)
        for (int64_t j = 0; j < sk; ++j) {
          RefAt at{i, j, 0, 0, 0, sq, sk};
          EXPECT_EQ(causal.maskRef(at), causalMaskRef(i, j, sq, sk));
          EXPECT_EQ(window.maskRef(at), causalMaskRef(i, j, sq, sk, 3));
        }
  AttentionVariant v = withScoreMod(
      [](auto s, const auto &at) { return s * 2 + at.row * 100 + at.col * 10 + at.head; });
  EXPECT_EQ(v.scoreModRef(0.5, RefAt{3, 7, 2, 0, 2, 9, 9}), 1 + 300 + 70 + 2);
}

TEST(AttentionVariant, WrittenOnceKernelAndReferenceDisagreeWhenTheyDiffer) {
  // Built from |row - col| and checked against |col - row + 1|: caught, so
  // a mix-up between the tile and the number instantiation would be too.
  AttentionConfig cfg;
  double err = runAgainst(
      writtenOnce([](const auto &row, const auto &col) { return row - col; }),
      writtenOnce([](const auto &row, const auto &col) { return col - row + 9; }), cfg,
      {"seq_q=64", "seq_k=80"});
  EXPECT_TRUE(err < 0 || err > 0.1) << "a different rule went unnoticed (error " << err << ")";
}

TEST(AttentionVariant, RefNumComputesAsTheKernelWould) {
  // Integers truncate as i32 tiles do; .to() rounds as the kernel's casts.
  EXPECT_EQ((RefNum(int64_t{7}) / 2).v, 3);
  EXPECT_EQ((RefNum(int64_t{-7}) / 2).v, -3);
  EXPECT_EQ((RefNum(int64_t{-7}) % 3).v, -1);
  EXPECT_EQ((RefNum(7.0) / 2).v, 3.5);
  EXPECT_TRUE((RefNum(int64_t{7}) / 2).integral);
  EXPECT_FALSE((RefNum(int64_t{7}) / 2.0).integral);
  EXPECT_EQ(RefNum(0.1).to(DType::F32).v, static_cast<double>(0.1f));
  EXPECT_EQ(RefNum(1.0 / 3).to(DType::BF16).v, roundTo(DType::BF16, 1.0 / 3));
  EXPECT_EQ(RefNum(2.9).to(DType::I32).v, 2);
  EXPECT_TRUE(static_cast<bool>(RefNum(int64_t{1}) < 2 && !(RefNum(3.0) <= 2)));
  EXPECT_EQ(where(RefNum(int64_t{3}) > 2, 1.5, RefNum(int64_t{4})).v, 1.5);
  EXPECT_EQ(max(RefNum(int64_t{3}), -2).v, 3);
  EXPECT_EQ(abs(RefNum(-2.5)).v, 2.5);
  EXPECT_NEAR(tanh(RefNum(0.5)).v, std::tanh(0.5), 0);
}

/// Runs `build` and expects one error, at `line`, saying `message`.
void expectOneErrorAt(const std::function<void(KernelBuilder &)> &build, unsigned line,
                      const char *message) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  std::vector<std::pair<unsigned, std::string>> errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    auto loc = mlir::dyn_cast<mlir::FileLineColLoc>(d.getLocation());
    errors.push_back({loc ? loc.getLine() : 0, d.str()});
    return mlir::success();
  });
  KernelBuilder k(context, "attention");
  build(k);
  EXPECT_FALSE(k.finish());
  ASSERT_EQ(errors.size(), 1u) << "reported " << errors.size() << " times";
  EXPECT_EQ(errors[0].first, line) << errors[0].second;
  EXPECT_NE(errors[0].second.find(message), std::string::npos) << errors[0].second;
}

/// The same for the forward of each variant.
void expectReportedOnceAt(
    const std::vector<std::tuple<AttentionVariant, unsigned, const char *>> &cases) {
  for (const auto &[variant, line, message] : cases)
    expectOneErrorAt([&](KernelBuilder &k) { buildFlashAttention(k, AttentionConfig{}, variant); },
                     line, message);
}

TEST(AttentionVariant, AWrongRuleIsReportedOnceAtTheLineThatMadeIt) {
  // A mask that gives numbers, not a comparison; a modifier that gives one.
  unsigned maskLine = __LINE__ + 1;
  AttentionVariant wrongMask = withMask([](const auto &at) { return (at.col - at.row).to(DType::F32); });
  unsigned modLine = __LINE__ + 1;
  AttentionVariant wrongMod = withScoreMod([](auto s, const auto &) { return s > 0; });
  expectReportedOnceAt(
      {{wrongMask, maskLine, "the mask made here must give a comparison"},
       {wrongMod, modLine, "the score modifier made here must give floating-point"}});
}

TEST(AttentionVariant, AHandWrittenRuleOfTheWrongTypeIsReportedAtItsRegistration) {
  // Rules not made by withMask / withScoreMod carry no line of their own:
  // their kernels report a wrong type at the registration's line.
  unsigned line = __LINE__ + 1;
  registerAttentionVariant({.name = "test_wrong_handwritten_mask",
                            .variant = [](const Params &) {
                              return AttentionVariant{.mask = [](const BlockContext &c) {
                                return c.cols.row() + c.rows.col(); // i32, not a comparison
                              }};
                            }});
  const KernelDef *def = Registry::global().find("flash_attention_fwd_test_wrong_handwritten_mask");
  ASSERT_NE(def, nullptr);
  expectOneErrorAt([&](KernelBuilder &k) { def->build(k, Params(def->params)); }, line,
                   "the mask of the variant registered here must give a comparison");
}

TEST(AttentionVariant, AMaskWithoutKeyRangeAppliesToEveryBlock) {
  // Keys of the same parity only: no key range says where the mask is
  // needed, so every block is masked (maskedKeys). Checked against the
  // same mask with allKeys' range, which masks only the ragged block: that
  // one must be caught, or the first check proves nothing.
  auto parity = [](const auto &at) { return (at.row - at.col) % 2 == 0; };
  AttentionVariant masked = withMask(parity);
  AttentionVariant lastBlockOnly = withMask(parity, [](const RangeContext &c) { return allKeys(c); });
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 32;
  double err = runAgainst(masked, masked, cfg, {"seq_q=70", "seq_k=100"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
  double wrong = runAgainst(lastBlockOnly, masked, cfg, {"seq_q=70", "seq_k=100"});
  EXPECT_TRUE(wrong < 0 || wrong > 0.1) << "interior blocks unmasked went unnoticed";
}

/// Per-batch document ids as a runtime input, ids in runs of 5 positions
/// shifted by the batch (so batch 0's and batch 1's documents differ).
AttentionVariant documents(bool indexByBatch) {
  AttentionVariant v = withMask([indexByBatch](const auto &at) {
    auto doc = at.input("doc");
    auto b = indexByBatch ? at.batch : at.batch * 0;
    return doc(b, at.row) == doc(b, at.col);
  });
  v.inputs = {{.name = "doc",
               .shape = {InputDim::batch(), InputDim::seqK()},
               .fill = [](const InputFill &f) {
                 std::vector<double> ids;
                 for (int64_t b = 0; b < f.shape[0]; ++b)
                   for (int64_t j = 0; j < f.shape[1]; ++j)
                     ids.push_back(static_cast<double>((j + 3 * b) / 5));
                 return ids;
               }}};
  return v;
}

TEST(AttentionVariant, RuntimeInputsReachKernelAndReference) {
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 32;
  std::vector<std::string> sizes = {"batch=2", "heads=3", "seq_q=77", "seq_k=77"};
  double err = runAgainst(documents(true), documents(true), cfg, sizes);
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
  // Reading batch 0's ids for every batch is caught: the batch index matters.
  double wrong = runAgainst(documents(false), documents(true), cfg, sizes);
  EXPECT_TRUE(wrong < 0 || wrong > 0.1) << "the batch index went unnoticed (error " << wrong << ")";
}

TEST(AttentionVariant, ATableIndexedByHeadAndDistance) {
  // A bias table [heads, 9] by head within the batch and clipped distance.
  auto table = [](int64_t delta) {
    AttentionVariant v = withScoreMod([delta](auto s, const auto &at) {
      auto offset = min(max(at.col - at.row + delta, -4), 4) + 4;
      return s + at.input("bias")(at.qhead, offset) * 3.0;
    });
    v.inputs = {{.name = "bias", .dtype = DType::F32,
                 .shape = {InputDim::heads(), InputDim::fixed(9)}}};
    return v;
  };
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 32;
  std::vector<std::string> sizes = {"batch=2", "heads=2", "seq_q=40", "seq_k=50"};
  double err = runAgainst(table(0), table(0), cfg, sizes);
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
  double wrong = runAgainst(table(1), table(0), cfg, sizes);
  EXPECT_TRUE(wrong < 0 || wrong > 0.05) << "a shifted table index went unnoticed";
}

TEST(AttentionVariant, InputReadsOutsideTheTensorAreZero) {
  std::vector<InputValues> values = {{"t", DType::I32, {2, 3}, {1, 2, 3, 4, 5, 6}}};
  AttentionVariant v = withScoreMod([](auto s, const auto &at) {
    return s + at.input("t")(at.row, at.col).to(DType::F32);
  });
  auto at = [&](int64_t i, int64_t j) { return RefAt{i, j, 0, 0, 0, 4, 4, &values}; };
  EXPECT_EQ(v.scoreModRef(0.5, at(1, 2)), 6.5);
  EXPECT_EQ(v.scoreModRef(0.5, at(2, 0)), 0.5);
  EXPECT_EQ(v.scoreModRef(0.5, at(0, 3)), 0.5);
  EXPECT_EQ(v.scoreModRef(0.5, at(-1, 0)), 0.5);
}

TEST(AttentionVariant, InputMistakesAreReportedAtTheRule) {
  VariantInput ids{.name = "ids", .shape = {InputDim::seqK()}};
  unsigned unknownLine = __LINE__ + 1;
  AttentionVariant unknown = withMask([](const auto &at) { return at.input("idz")(at.col) > 0; });
  unknown.inputs = {ids};
  unsigned rankLine = __LINE__ + 1;
  AttentionVariant rank = withMask([](const auto &at) { return at.input("ids")(at.row, at.col) > 0; });
  rank.inputs = {ids};
  unsigned batchLine = __LINE__ + 1;
  AttentionVariant batch = withMask([](const auto &at) { return at.input("ids")(at.batch) > 0; });
  batch.inputs = {ids};
  expectReportedOnceAt(
      {{unknown, unknownLine, "no runtime input named 'idz'"},
       {rank, rankLine, "input 'ids' has 1 dimensions, read with 2 indices"},
       {batch, batchLine, "at.batch and at.qhead are known only where an input has a batch"}});
}

/// Causal written as a plain mask (no key range), visited through a block
/// mask: blocks below the diagonal are full, on it partial, above skipped.
AttentionVariant causalByBlockMask() {
  AttentionVariant v = withMask([](const auto &at) { return causalRule(at); });
  v.blockMask = true;
  return v;
}

TEST(AttentionVariant, BlockMaskKernelMatchesTheHostsLists) {
  // By queries (the forward's and dQ's lists) and by keys (dK/dV's).
  double partial = 0, full = 0;
  for (auto settings : {std::vector<std::string>{"batch=2", "seq_q=300", "seq_k=420"},
                        std::vector<std::string>{"heads=3", "seq_q=520", "seq_k=130"}})
    for (bool byKeys : {false, true}) {
      RunPlan plan = planAttentionBlockMask(causalByBlockMask(), sizesOf(settings), 3, byKeys);
      const std::vector<double> &counts = plan.expected[0].values;
      for (size_t i = 0; i < counts.size(); i += 2) {
        partial += counts[i];
        full += counts[i + 1];
      }
      double err = runPlan(
          [&](KernelBuilder &k) { buildAttentionBlockMask(k, causalByBlockMask(), byKeys); }, plan);
      EXPECT_EQ(err, 0);
    }
  // The lists held full blocks (below the diagonal) and partial ones.
  EXPECT_GT(partial, 0);
  EXPECT_GT(full, 0);
}

/// Moves every partial entry of `plan`'s lists (buffers `counts`, `blocks`)
/// to the full ones: the kernels then skip the mask where it is needed.
void callEveryBlockFull(RunPlan &plan, int counts, int blocks) {
  ASSERT_EQ(plan.memory[counts].name, "block_counts");
  std::vector<double> &n = plan.memory[counts].data, &list = plan.memory[blocks].data;
  const size_t rows = n.size() / 2, others = list.size() / rows;
  for (size_t row = 0; row < rows; ++row) {
    auto partial = static_cast<int64_t>(n[2 * row]), full = static_cast<int64_t>(n[2 * row + 1]);
    for (int64_t t = 0; t < partial; ++t)
      list[row * others + others - 1 - full - t] = list[row * others + t];
    n[2 * row + 1] = static_cast<double>(partial + full);
    n[2 * row] = 0;
  }
}

TEST(AttentionVariant, ForwardVisitsTheListedBlocks) {
  // Step by step, and pipelined (each step's P·V the previous listed
  // block's, across the partial-to-full boundary of the list).
  for (bool overlap : {false, true}) {
    AttentionConfig cfg;
    cfg.blockM = 64;
    cfg.blockN = 32;
    cfg.overlap = overlap;
    Params sizes = sizesOf({"batch=2", "heads=2", "seq_q=300", "seq_k=420"});
    auto build = [&](KernelBuilder &k) { buildFlashAttention(k, cfg, causalByBlockMask()); };
    double err = runPlan(build, planAttention(cfg, causalByBlockMask(), sizes, 5));
    EXPECT_GE(err, 0);
    EXPECT_LE(err, 2e-2) << "overlap " << overlap;
    // Lists that call every partial block full (no mask on the diagonal) are caught.
    RunPlan wrong = planAttention(cfg, causalByBlockMask(), sizes, 5);
    callEveryBlockFull(wrong, 5, 6);
    double caught = runPlan(build, wrong);
    EXPECT_TRUE(caught < 0 || caught > 0.1) << "unmasked diagonal blocks went unnoticed";
  }
}

TEST(AttentionVariant, BlockMasksPerBatchOrForAll) {
  // Lists with one row per batch (a mask that reads no head: documents per
  // batch) or one for all (causal): the kernels read row head / (B·H / rows).
  AttentionConfig cfg;
  cfg.blockM = 64;
  cfg.blockN = 32;
  const int64_t batch = 2, heads = 3;
  Params sizes = sizesOf({"batch=2", "heads=3", "seq_q=300", "seq_k=300"});
  AttentionVariant docs = documents(true);
  docs.blockMask = true;
  for (auto [variant, rows] : {std::pair{docs, batch}, std::pair{causalByBlockMask(), int64_t{1}}}) {
    RunPlan plan = planAttention(cfg, variant, sizes, 5);
    ASSERT_EQ(plan.memory[5].name, "block_counts");
    // Keep the rows of heads 0, H, 2H, ... (or head 0 alone).
    const int64_t keep = batch * heads / rows;
    for (int buffer : {5, 6}) {
      auto &binding = std::get<TensorBinding>(plan.args[buffer]);
      const int64_t rowSize = binding.strides[0];
      std::vector<double> fewer;
      for (int64_t r = 0; r < rows; ++r)
        fewer.insert(fewer.end(), plan.memory[buffer].data.begin() + r * keep * rowSize,
                     plan.memory[buffer].data.begin() + (r * keep + 1) * rowSize);
      plan.memory[buffer].data = fewer;
      binding.shape[0] = rows;
    }
    auto build = [&](KernelBuilder &k) { buildFlashAttention(k, cfg, variant); };
    double err = runPlan(build, plan);
    EXPECT_GE(err, 0);
    EXPECT_LE(err, 2e-2) << rows << " rows";
  }
}

TEST(AttentionVariant, BackwardVisitsTheListedBlocks) {
  // dK/dV per key block over the query blocks the by-keys lists give (GQA:
  // each query head of the group its own lists), dQ over the key blocks.
  AttentionConfig cfg;
  cfg.blockM = 32;
  cfg.blockN = 64;
  cfg.group = 2;
  Params sizes = sizesOf({"batch=2", "heads=2", "seq_q=300", "seq_k=420"});
  using Build = std::function<void(KernelBuilder &)>;
  Build kv = [&](KernelBuilder &k) { buildAttentionBackwardKV(k, cfg, causalByBlockMask()); };
  Build q = [&](KernelBuilder &k) { buildAttentionBackwardQ(k, cfg, causalByBlockMask()); };
  for (auto [build, plan] : {std::pair{kv, planAttentionBackwardKV(cfg, causalByBlockMask(), sizes, 9)},
                             std::pair{q, planAttentionBackwardQ(cfg, causalByBlockMask(), sizes, 9)}}) {
    double err = runPlan(build, plan);
    EXPECT_GE(err, 0);
    EXPECT_LE(err, 1e-2);
    // The lists follow the kernel's own parameters (q, k, v, do, lse_log2,
    // delta, then dk, dv or dq).
    int counts = plan.memory[8].name == "block_counts" ? 8 : 7;
    callEveryBlockFull(plan, counts, counts + 1);
    double caught = runPlan(build, plan);
    EXPECT_TRUE(caught < 0 || caught > 0.05) << "unmasked diagonal blocks went unnoticed";
  }
}

TEST(AttentionVariant, BlockMaskTilesMustDivideTheMasksBlocks) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  std::vector<std::string> errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    errors.push_back(d.str());
    return mlir::success();
  });
  AttentionConfig cfg;
  cfg.blockM = 256;
  KernelBuilder k(context, "attention");
  buildFlashAttention(k, cfg, causalByBlockMask());
  EXPECT_FALSE(k.finish());
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("must divide 128"), std::string::npos) << errors[0];
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
