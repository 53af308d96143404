//===- AttentionDecodeTest.cpp - split-KV decoding end to end -------------===//
//
// The decoding kernel's split outputs, merged by the combine kernel, must be
// attention over every key: checked against the double-precision reference
// of the whole sequence (not the per-split one the kernel plans use), for
// variants that see each packed row's own position and head. A reference
// that maps packed rows to the wrong head must fail the comparison.
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

struct Built {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  KernelSignature signature;
};

Built build(mlir::MLIRContext &context, const std::string &name,
            const std::function<void(KernelBuilder &)> &body) {
  KernelBuilder k(context, name);
  body(k);
  Built built{nullptr, k.signature()};
  built.module = k.finish();
  return built;
}

/// Runs decode (made with `variant`) and, with more than one split, the
/// combine on random inputs of
/// `settings` and returns the worst normalized error of O and LSE against
/// attention over all keys with `reference`; -1 on NaN or misplaced
/// infinities.
double decodeAgainst(const AttentionVariant &variant, const AttentionVariant &reference,
                     const AttentionConfig &cfg, const std::vector<std::string> &settings) {
  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  Built decode = build(context, "decode", [&](KernelBuilder &k) {
    buildAttentionDecode(k, cfg, variant);
  });
  AttentionConfig combineCfg = cfg;
  combineCfg.blockM = 16;
  Built combine = build(context, "combine", [&](KernelBuilder &k) {
    buildAttentionDecodeCombine(k, combineCfg);
  });
  EXPECT_TRUE(decode.module && combine.module);
  if (!decode.module || !combine.module)
    return -1;

  std::vector<ParamSpec> specs = attentionDecodeSizes();
  Params sizes(specs);
  for (const std::string &s : settings)
    EXPECT_EQ(sizes.setAssignment(specs, s), "");
  RunPlan plan = planAttentionDecode(cfg, variant, sizes, 11);
  EXPECT_TRUE(interpret(*decode.module, "decode", decode.signature, plan.args, plan.grid,
                        plan.memory));

  const int64_t bhK = sizes.getInt("batch") * sizes.getInt("kv_heads");
  const int64_t seqQ = sizes.getInt("seq_q"), seqK = sizes.getInt("seq_k");
  const int64_t rows = cfg.group * seqQ, d = cfg.headDim;
  std::vector<HostBuffer> memory = {plan.memory[5], plan.memory[6],
                                    HostBuffer{"o", cfg.dtype, std::vector<double>(bhK * rows * d)},
                                    HostBuffer{"lse", DType::F32, std::vector<double>(bhK * rows)}};
  TensorBinding oPart = std::get<TensorBinding>(plan.args[5]);
  TensorBinding lsePart = std::get<TensorBinding>(plan.args[6]);
  oPart.buffer = 0;
  lsePart.buffer = 1;
  std::vector<ArgBinding> args = {oPart, lsePart,
                                  TensorBinding{2, {bhK, rows, d}, {rows * d, d, 1}},
                                  TensorBinding{3, {bhK, rows}, {rows, 1}}};
  std::array<int64_t, 3> grid{(rows + 15) / 16, bhK, 1};
  if (sizes.getInt("splits") > 1)
    EXPECT_TRUE(interpret(*combine.module, "combine", combine.signature, args, grid, memory));
  else // the decoding kernel wrote O and LSE itself
    memory = {plan.memory[5], plan.memory[6], plan.memory[3], plan.memory[4]};

  ReferenceAttention ref{bhK * cfg.group, seqQ, seqK, d, cfg.group, cfg.scale, &reference};
  std::vector<double> o, lse;
  ref.forward(plan.memory[0].data, plan.memory[1].data, plan.memory[2].data, o, lse);
  Comparison oCmp = compareOutputs(memory[2].data, o), lseCmp = compareOutputs(memory[3].data, lse);
  if (oCmp.nanCount || oCmp.infMismatches || lseCmp.nanCount || lseCmp.infMismatches)
    return -1;
  double worst = std::max(oCmp.normalizedError, lseCmp.normalizedError);
  std::printf("    max relative error %.3g\n", worst);
  return worst;
}

/// Causal with a relative-position penalty and a per-head bias: depends on
/// each packed row's position and head. `headOf` maps the reference's query
/// head to the head whose bias it adds.
AttentionVariant positional(std::function<int64_t(int64_t)> headOf = [](int64_t h) { return h; }) {
  return {.scoreMod =
              [](Tile s, const BlockContext &c) {
                Tile distance = (c.rows.col() - c.cols.row()).to(DType::F32);
                return s - abs(distance) * 0.05 + c.head.to(DType::F32) * 0.5;
              },
          .mask = [](const BlockContext &c) { return causalMask(c); },
          .keyRange = [](const RangeContext &c) { return causalKeys(c); },
          .scoreModRef =
              [headOf](double s, const RefAt &at) {
                return s - std::fabs(static_cast<double>(at.row - at.col)) * 0.05 +
                       headOf(at.head) * 0.5;
              },
          .maskRef = [](const RefAt &at) {
            return causalMaskRef(at.row, at.col, at.seqQ, at.seqK);
          }};
}

AttentionConfig config(int64_t group, int64_t blockM = 32, int64_t blockN = 16) {
  AttentionConfig cfg;
  cfg.group = group;
  cfg.blockM = blockM;
  cfg.blockN = blockN;
  return cfg;
}

TEST(AttentionDecode, SplitsCombineToAttention) {
  double err = decodeAgainst(positional(), positional(), config(4),
                             {"batch=2", "kv_heads=2", "seq_q=3", "seq_k=150", "splits=4"});
  EXPECT_GE(err, 0) << "NaN or misplaced infinities";
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionDecode, MoreSplitsThanBlocks) {
  // 5 key blocks in 8 splits: three runs see no key (lse -inf, no weight).
  AttentionVariant dense;
  double err = decodeAgainst(dense, dense, config(5), {"seq_q=1", "seq_k=70", "splits=8"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionDecode, SlidingWindowAndEmptyRows) {
  // seq_q > seq_k: the first causal rows see no key (O = 0, LSE = -inf).
  AttentionVariant window{.mask = [](const BlockContext &c) { return causalMask(c, 9); },
                          .keyRange = [](const RangeContext &c) { return causalKeys(c, 9); },
                          .maskRef = [](const RefAt &at) {
                            return causalMaskRef(at.row, at.col, at.seqQ, at.seqK, 9);
                          }};
  double err = decodeAgainst(window, window, config(3), {"seq_q=12", "seq_k=8", "splits=2"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionDecode, MoreQueriesThanBlockRows) {
  // seq_q = 20 > block_m = 16: every key visited, every block masked.
  double err = decodeAgainst(positional(), positional(), config(2, 16),
                             {"seq_q=20", "seq_k=90", "splits=3"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionDecode, OneSplitWritesTheResult) {
  double err = decodeAgainst(positional(), positional(), config(4),
                             {"batch=2", "kv_heads=1", "seq_q=3", "seq_k=150", "splits=1"});
  EXPECT_GE(err, 0);
  EXPECT_LE(err, 2e-2);
}

TEST(AttentionDecode, WrongHeadIsCaught) {
  // The reference adds the K/V head's bias instead of the query head's: the
  // packed rows' heads are visible in the result, so this must not pass.
  double err = decodeAgainst(positional(), positional([](int64_t h) { return h / 4; }), config(4),
                             {"batch=1", "kv_heads=2", "seq_q=2", "seq_k=64", "splits=2"});
  EXPECT_TRUE(err < 0 || err > 0.1) << "a wrong head went unnoticed (error " << err << ")";
}

} // namespace
