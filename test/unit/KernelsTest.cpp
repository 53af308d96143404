//===- KernelsTest.cpp - every registered kernel on the CPU interpreter ---===//
//
// Each example and attention variant runs through the interpreter against
// its double-precision reference, at several sizes: ragged (not multiples of
// the blocks), seq_q != seq_k both ways (rows a causal mask leaves empty),
// batch and heads > 1, large logits, d = 128, f16, other block sizes. The
// kernel is run as built, after canonicalize + cse, and after the GPU
// pipeline's tile-level rewrites (load prefetching), so every rewrite is
// checked against the same reference.
//
//===----------------------------------------------------------------------===//

#include "tilec/DSL/DSL.h"
#include "tilec/InitAll.h"
#include "tilec/Interpreter/Interpreter.h"
#include "tilec/Passes.h"
#include "tilec/Registry.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tilec;

namespace {

struct Case {
  std::string kernel;
  std::vector<std::string> settings; ///< --set
  std::vector<std::string> sizes;    ///< --size
};

std::string caseName(const Case &c) {
  std::string name = c.kernel;
  for (const std::string &s : c.settings) name += "_" + s;
  for (const std::string &s : c.sizes) name += "_" + s;
  for (char &ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

/// A pass the GPU pipeline runs, run on the kernel before the interpreter.
using PassFactory = std::unique_ptr<mlir::Pass> (*)();

/// Builds the kernel, runs its plan, and returns the worst normalized error
/// over its outputs after checking there is no NaN and no infinity out of
/// place. With `canonicalize`: canonicalize, cse, then `passes`.
void runCase(const Case &c, bool canonicalize, std::vector<PassFactory> passes = {}) {
  const KernelDef *def = Registry::global().find(c.kernel);
  ASSERT_NE(def, nullptr) << c.kernel << " is not registered";
  Params params(def->params), sizes(def->sizes);
  for (const std::string &s : c.settings) ASSERT_EQ(params.setAssignment(def->params, s), "");
  for (const std::string &s : c.sizes) ASSERT_EQ(sizes.setAssignment(def->sizes, s), "");

  mlir::DialectRegistry registry;
  registerTilecDialects(registry);
  mlir::MLIRContext context(registry);
  dsl::KernelBuilder builder(context, def->name);
  def->build(builder, params);
  KernelSignature signature = builder.signature();
  mlir::OwningOpRef<mlir::ModuleOp> module = builder.finish();
  ASSERT_TRUE(module) << "kernel failed to build";
  if (canonicalize) {
    mlir::PassManager pm(&context);
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addPass(mlir::createCSEPass());
    for (PassFactory pass : passes)
      pm.addPass(pass());
    ASSERT_TRUE(mlir::succeeded(pm.run(*module)));
  }

  RunPlan plan = def->plan(params, sizes, /*seed=*/42);
  ASSERT_TRUE(interpret(*module, def->name, signature, plan.args, plan.grid, plan.memory));
  for (const RunPlan::Expected &expected : plan.expected) {
    const HostBuffer &out = plan.memory[expected.buffer];
    Comparison cmp = compareOutputs(out.data, expected.values);
    ::testing::Test::RecordProperty(out.name + "_normalized_error",
                                    std::to_string(cmp.normalizedError));
    std::printf("    %-5s max relative error %.3g (max |error| %.3g)\n", out.name.c_str(),
                cmp.normalizedError, cmp.maxAbsError);
    EXPECT_EQ(cmp.nanCount, 0) << out.name << " has NaN";
    EXPECT_EQ(cmp.infMismatches, 0) << out.name << " has infinities where the reference has not "
                                    << "(or misses the reference's), first at " << cmp.worstIndex;
    EXPECT_LE(cmp.normalizedError, plan.tolerance)
        << out.name << " differs from the reference; worst element " << cmp.worstIndex;
  }
}

class KernelTest : public ::testing::TestWithParam<Case> {};

TEST_P(KernelTest, MatchesReference) { runCase(GetParam(), /*canonicalize=*/false); }
TEST_P(KernelTest, MatchesReferenceAfterCanonicalize) { runCase(GetParam(), true); }
TEST_P(KernelTest, MatchesReferenceWithPrefetchedLoads) {
  runCase(GetParam(), true, {createTilePrefetchLoads});
}
// A few programs looping over the logical grid (tile-persistent-grid).
TEST_P(KernelTest, MatchesReferenceAsPersistentGrid) {
  runCase(GetParam(), true, {createTilePersistentGrid});
}
// Masks with the keys' bound merged into the causal or window bound
// (tile-merge-upper-bounds, as the GPU pipeline runs it).
TEST_P(KernelTest, MatchesReferenceWithMergedBounds) {
  runCase(GetParam(), true, {createTileMergeUpperBounds});
}
// Row terms of the scores (ALiBi's query part) out of the softmax loops
// (tile-hoist-row-terms, as the GPU pipeline runs it).
TEST_P(KernelTest, MatchesReferenceWithRowTermsHoisted) {
  runCase(GetParam(), true, {createTileHoistRowTerms});
}

std::vector<Case> allCases() {
  std::vector<Case> cases = {
      {"vector_add", {}, {"n=3000"}},
      {"vector_add", {"block=128"}, {"n=1"}},
      {"matmul", {}, {"m=100", "n=72", "k=50"}},
      {"matmul", {"block_m=32", "block_n=16", "block_k=16"}, {"m=33", "n=17", "k=129"}},
      {"row_softmax", {}, {"rows=37", "cols=200"}},
      {"row_softmax", {"block_rows=4", "block_cols=16"}, {"rows=5", "cols=3", "amplitude=60"}},
  };
  const std::vector<std::string> attention = {
      "flash_attention_fwd",      "flash_attention_fwd_causal", "flash_attention_fwd_sliding_window",
      "flash_attention_fwd_gqa",  "flash_attention_fwd_alibi",  "flash_attention_fwd_softcap"};
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {}, {"seq_q=100", "seq_k=100"}});
    cases.push_back({kernel, {"block_m=32", "block_n=16"}, {"seq_q=37", "seq_k=130"}});
    cases.push_back({kernel, {"block_m=32", "block_n=32"}, {"seq_q=130", "seq_k=45"}});
    cases.push_back({kernel, {}, {"batch=2", "heads=4", "seq_q=65", "seq_k=64", "amplitude=8"}});
    cases.push_back({kernel, {"head_dim=128", "dtype=f16"}, {"seq_q=70", "seq_k=90"}});
  }
  // GQA proper (2 of 4 heads share) and MQA (all 4 share one).
  cases.push_back({"flash_attention_fwd_gqa", {"group=2"}, {"heads=4", "seq_q=50", "seq_k=77"}});
  cases.push_back({"flash_attention_fwd_gqa", {"group=4"}, {"batch=2", "heads=4", "seq_q=50", "seq_k=77"}});
  // A window narrower than a block, and one wider than the sequence.
  cases.push_back({"flash_attention_fwd_sliding_window", {"window=5", "block_n=16"}, {"seq_q=90", "seq_k=90"}});
  cases.push_back({"flash_attention_fwd_sliding_window", {"window=500"}, {"seq_q=90", "seq_k=120"}});
  // Row groups sharing each K/V block (the sm_90a schedule at d = 128).
  cases.push_back({"flash_attention_fwd_causal", {"row_groups=2"}, {"seq_q=150", "seq_k=290"}});
  cases.push_back({"flash_attention_fwd_alibi", {"block_m=64", "row_groups=4"}, {"heads=3", "seq_q=70", "seq_k=100"}});
  // The software-pipelined loop (overlap): every variant, an empty key
  // range (rows before the causal diagonal), row groups, one key block.
  for (const std::string &kernel : attention)
    cases.push_back({kernel, {"overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=77"}});
  cases.push_back({"flash_attention_fwd_causal", {"overlap=on"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_gqa", {"overlap=on", "row_groups=2", "group=3"}, {"heads=3", "seq_q=100", "seq_k=290"}});
  cases.push_back({"flash_attention_fwd", {"overlap=on", "head_dim=128"}, {"seq_q=70", "seq_k=20"}});
  // ... with its first step on its own (peel_first): every variant, a
  // first block that is partly outside a window, one key block, rows with
  // no key, an empty range.
  for (const std::string &kernel : attention)
    cases.push_back({kernel, {"overlap=on", "peel_first=on", "block_n=32"}, {"seq_q=130", "seq_k=77"}});
  cases.push_back({"flash_attention_fwd_sliding_window", {"overlap=on", "peel_first=on", "window=5", "block_n=16"}, {"seq_q=90", "seq_k=90"}});
  cases.push_back({"flash_attention_fwd", {"overlap=on", "peel_first=on", "head_dim=128"}, {"seq_q=70", "seq_k=20"}});
  cases.push_back({"flash_attention_fwd_causal", {"overlap=on", "peel_first=on", "block_n=16"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_gqa", {"overlap=on", "peel_first=on", "row_groups=2", "group=3"}, {"heads=3", "seq_q=100", "seq_k=290"}});
  // Key blocks in power-of-two parts (48 = 32 + 16, 80 = 64 + 16): every
  // variant, overlapped (its last P·V in a loop of one step) and not, a
  // block past the keys, rows with no key; and the last P·V's loop with
  // a power-of-two block.
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {"overlap=on", "block_n=48"}, {"seq_q=130", "seq_k=77"}});
    cases.push_back({kernel, {"overlap=off", "block_n=80"}, {"seq_q=70", "seq_k=100"}});
  }
  cases.push_back({"flash_attention_fwd_causal", {"overlap=on", "peel_first=on", "block_n=48"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_causal", {"overlap=on", "last_values=ring", "block_n=32"}, {"seq_q=90", "seq_k=130"}});
  // The row sum kept per thread through the loops and added across
  // threads after them (row_sums=end): every variant, overlapped and not,
  // key parts, rows with no key, listed blocks, variable lengths, and a
  // key block too narrow for it (4 keys: summed every step instead).
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {"row_sums=end", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=77"}});
    cases.push_back({kernel, {"row_sums=end", "overlap=off"}, {"batch=2", "heads=2", "seq_q=65", "seq_k=100"}});
  }
  cases.push_back({"flash_attention_fwd_causal", {"row_sums=end", "overlap=on", "peel_first=on", "block_n=48"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_document", {"row_sums=end", "overlap=on", "block_n=32"}, {"batch=2", "seq_q=300", "seq_k=421"}});
  cases.push_back({"flash_attention_varlen_causal", {"row_sums=end", "overlap=on", "block_n=32"}, {"batch=4", "seq_q=150", "seq_k=290"}});
  cases.push_back({"flash_attention_fwd", {"row_sums=end", "block_m=16", "block_n=4"}, {"seq_q=20", "seq_k=33"}});
  // The row sums as P·1 beside P·V (row_sums=dot: O's last column part,
  // rescaled with it): every variant, overlapped and not, the first step
  // peeled, key parts, rows with no key, listed blocks, variable lengths,
  // the lazy rescale (peaked scores), a value head dim of its own.
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {"row_sums=dot", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=77"}});
    cases.push_back({kernel, {"row_sums=dot", "overlap=off"}, {"batch=2", "heads=2", "seq_q=65", "seq_k=100"}});
  }
  cases.push_back({"flash_attention_fwd_causal", {"row_sums=dot", "overlap=on", "peel_first=on", "block_n=48"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_document", {"row_sums=dot", "overlap=on", "block_n=32"}, {"batch=2", "seq_q=300", "seq_k=421"}});
  cases.push_back({"flash_attention_varlen_causal", {"row_sums=dot", "overlap=on", "block_n=32"}, {"batch=4", "seq_q=150", "seq_k=290"}});
  cases.push_back({"flash_attention_fwd", {"row_sums=dot", "lazy_rescale=on", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=177", "amplitude=8"}});
  cases.push_back({"flash_attention_fwd", {"row_sums=dot", "head_dim=96", "head_dim_v=32"}, {"seq_q=70", "seq_k=90"}});
  cases.push_back({"flash_attention_fwd_gqa", {"row_sums=dot", "overlap=on", "row_groups=2", "group=3"}, {"heads=3", "seq_q=100", "seq_k=290"}});
  // O rescaled just before the next block's P·V (rescale_at=next_pv,
  // FlashAttention-3's order: the alpha carried in the loop state): every
  // variant, the first step peeled or not, key parts, rows with no key,
  // listed blocks, variable lengths, with the lazy rescale (peaked scores),
  // row_sums=end and =dot, two row groups.
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {"rescale_at=next_pv", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=77"}});
    cases.push_back({kernel, {"rescale_at=next_pv", "overlap=on", "peel_first=on", "block_n=16"}, {"batch=2", "heads=2", "seq_q=65", "seq_k=100"}});
  }
  cases.push_back({"flash_attention_fwd_causal", {"rescale_at=next_pv", "overlap=on", "peel_first=on", "block_n=48"}, {"seq_q=150", "seq_k=40"}});
  cases.push_back({"flash_attention_fwd_document", {"rescale_at=next_pv", "overlap=on", "block_n=32"}, {"batch=2", "seq_q=300", "seq_k=421"}});
  cases.push_back({"flash_attention_varlen_causal", {"rescale_at=next_pv", "overlap=on", "block_n=32"}, {"batch=4", "seq_q=150", "seq_k=290"}});
  cases.push_back({"flash_attention_fwd", {"rescale_at=next_pv", "lazy_rescale=on", "row_sums=end", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=177", "amplitude=8"}});
  cases.push_back({"flash_attention_fwd_causal", {"rescale_at=next_pv", "row_sums=dot", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=177", "amplitude=4"}});
  cases.push_back({"flash_attention_fwd_gqa", {"rescale_at=next_pv", "overlap=on", "row_groups=2", "group=3"}, {"heads=3", "seq_q=100", "seq_k=290"}});
  // The lazy rescale (lazy_rescale=on: the running max moves only by more
  // than 8, O rescaled by tile.scale_rows): every variant, overlapped and
  // not, peaked scores (amplitude 8: the max moves, P reaches 2^8), rows
  // with no key, key parts, listed blocks, variable lengths, with
  // row_sums=end.
  for (const std::string &kernel : attention) {
    cases.push_back({kernel, {"lazy_rescale=on", "overlap=on", "block_n=32"}, {"seq_q=130", "seq_k=177", "amplitude=8"}});
    cases.push_back({kernel, {"lazy_rescale=on", "overlap=off"}, {"batch=2", "heads=2", "seq_q=65", "seq_k=100", "amplitude=4"}});
  }
  cases.push_back({"flash_attention_fwd_causal", {"lazy_rescale=on", "overlap=on", "peel_first=on", "block_n=48"}, {"seq_q=150", "seq_k=40", "amplitude=8"}});
  cases.push_back({"flash_attention_fwd_document", {"lazy_rescale=on", "overlap=on", "block_n=32"}, {"batch=2", "seq_q=300", "seq_k=421", "amplitude=8"}});
  cases.push_back({"flash_attention_varlen_causal", {"lazy_rescale=on", "row_sums=end", "overlap=on", "block_n=32"}, {"batch=4", "seq_q=150", "seq_k=290", "amplitude=8"}});
  // ... over listed blocks (document masks): partial and full blocks, runs
  // of 32 and 64 keys in each listed block, a ragged last block, queries
  // past the keys; and without the pipeline.
  cases.push_back({"flash_attention_fwd_document", {"overlap=on", "block_n=32"}, {"batch=2", "seq_q=300", "seq_k=421"}});
  cases.push_back({"flash_attention_fwd_document", {"overlap=on", "block_n=64", "shuffled=1"}, {"heads=2", "seq_q=200", "seq_k=130"}});
  cases.push_back({"flash_attention_fwd_document", {"overlap=off", "shuffled=1"}, {"seq_q=130", "seq_k=250"}});
  // The backward kernels of every variant: ragged sizes, seq_q != seq_k both
  // ways (rows a causal mask leaves empty: no gradient), B and H > 1, f16 at
  // d = 128, GQA groups that are not powers of two.
  cases.push_back({"flash_attention_bwd_prep", {}, {"batch=2", "heads=3", "seq_q=77"}});
  cases.push_back({"flash_attention_bwd_prep", {"head_dim=128", "dtype=f16", "block_m=32"}, {"seq_q=33"}});
  // The fused backward's last step (dQ from its f32 accumulator).
  cases.push_back({"flash_attention_bwd_dq_convert", {}, {"batch=2", "heads=3", "seq_q=77"}});
  cases.push_back({"flash_attention_bwd_dq_convert", {"head_dim=128", "dtype=f16"}, {"seq_q=33"}});
  for (std::string suffix : {"", "_causal", "_sliding_window", "_gqa", "_alibi", "_softcap"}) {
    for (std::string kernel : {"flash_attention_bwd_dkdv" + suffix, "flash_attention_bwd_dq" + suffix,
                               "flash_attention_bwd_fused" + suffix}) {
      cases.push_back({kernel, {}, {"seq_q=100", "seq_k=100"}});
      cases.push_back({kernel, {"block_m=32", "block_n=16"}, {"seq_q=37", "seq_k=130"}});
      cases.push_back({kernel, {"block_m=16", "block_n=32"}, {"seq_q=130", "seq_k=45"}});
      cases.push_back({kernel, {}, {"batch=2", "heads=4", "seq_q=65", "seq_k=64", "amplitude=4"}});
      cases.push_back({kernel, {"head_dim=128", "dtype=f16"}, {"seq_q=70", "seq_k=90"}});
    }
  }
  for (std::string kernel : {"flash_attention_bwd_dkdv_gqa", "flash_attention_bwd_dq_gqa", "flash_attention_bwd_fused_gqa"}) {
    cases.push_back({kernel, {"group=3", "block_m=32", "block_n=32"}, {"batch=2", "heads=3", "seq_q=50", "seq_k=77"}});
    cases.push_back({kernel, {"group=4"}, {"heads=4", "seq_q=64", "seq_k=40"}});
  }
  // The fused backward's dQ share in each place beside dK's dot
  // (dq_order): ragged ends, rows a mask leaves empty, a GQA group.
  for (std::string order : {"after_dk", "before_dk", "dot_before_dk"}) {
    const std::string dq = "dq_order=" + order;
    cases.push_back(
        {"flash_attention_bwd_fused", {dq, "head_dim=128"}, {"seq_q=150", "seq_k=201"}});
    cases.push_back({"flash_attention_bwd_fused_causal", {dq}, {"seq_q=130", "seq_k=45"}});
    cases.push_back(
        {"flash_attention_bwd_fused_gqa", {dq, "group=3"}, {"heads=3", "seq_q=77", "seq_k=130"}});
  }
  // Where the d = 128 steps read lse and delta (statistics; on sm_90a the
  // fused kernel's default is lse_top, dK/dV's at_use): ragged ends, rows a
  // mask leaves empty, a GQA group's loop.
  for (std::string read : {"step_top", "at_use", "lse_top"}) {
    const std::string st = "statistics=" + read;
    cases.push_back(
        {"flash_attention_bwd_fused", {st, "head_dim=128"}, {"seq_q=150", "seq_k=201"}});
    cases.push_back({"flash_attention_bwd_fused_causal",
                     {st, "head_dim=128"},
                     {"seq_q=130", "seq_k=45"}});
    cases.push_back({"flash_attention_bwd_dkdv_gqa",
                     {st, "head_dim=128", "group=3"},
                     {"heads=3", "seq_q=77", "seq_k=130"}});
  }
  // Two barriers of both warpgroups a step (consumer_barriers=two, one dSᵀ
  // buffer; the d = 128 default is one since session 52): ragged ends, rows
  // a mask leaves empty, a GQA group.
  {
    const std::string two = "consumer_barriers=two";
    cases.push_back(
        {"flash_attention_bwd_fused", {two, "head_dim=128"}, {"seq_q=150", "seq_k=201"}});
    cases.push_back(
        {"flash_attention_bwd_fused_causal", {two, "head_dim=128"}, {"seq_q=130", "seq_k=45"}});
    cases.push_back({"flash_attention_bwd_fused_gqa",
                     {two, "head_dim=128", "group=3"},
                     {"heads=3", "seq_q=77", "seq_k=130"}});
  }
  // ... and its scores as [queries, keys] (score_layout; the d = 64
  // default on sm_90a, 128 query rows a step): ragged ends, rows a mask
  // leaves empty, a GQA group, the prefix-LM mask, 64-row steps, f16.
  {
    const std::string qk = "score_layout=queries_by_keys";
    cases.push_back({"flash_attention_bwd_fused", {qk, "block_m=128"}, {"seq_q=150", "seq_k=201"}});
    cases.push_back(
        {"flash_attention_bwd_fused_causal", {qk, "block_m=128"}, {"seq_q=130", "seq_k=45"}});
    cases.push_back(
        {"flash_attention_bwd_fused_causal", {qk}, {"batch=2", "seq_q=45", "seq_k=130"}});
    cases.push_back({"flash_attention_bwd_fused_gqa",
                     {qk, "group=3", "block_m=128"},
                     {"heads=3", "seq_q=77", "seq_k=130"}});
    cases.push_back({"flash_attention_bwd_fused_prefix_lm",
                     {qk, "prefix=40", "block_m=128"},
                     {"seq_q=150", "seq_k=130"}});
    cases.push_back(
        {"flash_attention_bwd_fused", {qk, "head_dim=128", "dtype=f16"}, {"seq_q=70", "seq_k=90"}});
  }
  for (std::string kernel : {"flash_attention_bwd_dkdv_sliding_window", "flash_attention_bwd_dq_sliding_window"})
    cases.push_back({kernel, {"window=5", "block_n=16", "block_m=16"}, {"seq_q=90", "seq_k=90"}});
  // Prefix-LM (its prefix shorter and longer than the keys) and Gemma-2's
  // window with soft-capping, each rule written once: forward, backward,
  // packed and decoding kernels.
  for (std::string prefix : {"prefix=40", "prefix=300"}) {
    cases.push_back({"flash_attention_fwd_prefix_lm", {prefix}, {"seq_q=100", "seq_k=130"}});
    cases.push_back({"flash_attention_fwd_prefix_lm", {prefix, "block_m=32", "block_n=16"}, {"seq_q=130", "seq_k=77"}});
    cases.push_back({"flash_attention_bwd_dkdv_prefix_lm", {prefix}, {"seq_q=90", "seq_k=70"}});
    cases.push_back({"flash_attention_bwd_dq_prefix_lm", {prefix}, {"seq_q=70", "seq_k=90"}});
    cases.push_back({"flash_attention_varlen_prefix_lm", {prefix}, {"batch=5", "seq_q=100", "seq_k=130"}});
  }
  for (std::string kind : {"fwd", "bwd_dkdv", "bwd_dq", "varlen"})
    cases.push_back({"flash_attention_" + kind + "_sliding_window_softcap", {"window=30", "cap=5"}, {"batch=2", "seq_q=100", "seq_k=130"}});
  cases.push_back({"flash_attention_decode_sliding_window_softcap", {"window=30", "cap=5", "group=4"}, {"seq_q=3", "seq_k=200", "splits=3"}});
  // Decoding (split KV, packed GQA) for every variant: one query token, a
  // few (speculative decoding) with groups that are not powers of two, more
  // splits than key blocks (empty runs), d = 128 f16; and the combine.
  for (std::string suffix : {"", "_causal", "_sliding_window", "_alibi", "_softcap"}) {
    std::string kernel = "flash_attention_decode" + suffix;
    cases.push_back({kernel, {"group=4"}, {"seq_q=1", "seq_k=300", "splits=3"}});
    cases.push_back({kernel, {"group=5", "block_n=32"}, {"batch=2", "kv_heads=3", "seq_q=3", "seq_k=130", "splits=8"}});
    cases.push_back({kernel, {"head_dim=128", "dtype=f16", "group=2", "block_m=16"}, {"seq_q=16", "seq_k=77", "splits=2"}});
    cases.push_back({kernel, {"group=3"}, {"seq_q=2", "seq_k=100", "splits=1"}}); // writes O itself
  }
  // Packed sequences of ragged lengths (empty ones, queries without keys,
  // N_q != N_k both ways) for every variant; row groups, overlap, GQA.
  for (std::string suffix : {"", "_causal", "_sliding_window", "_gqa", "_alibi", "_softcap"}) {
    std::string kernel = "flash_attention_varlen" + suffix;
    cases.push_back({kernel, {}, {"batch=5", "seq_q=100", "seq_k=130"}});
    cases.push_back({kernel, {"block_m=32", "block_n=16"}, {"batch=7", "seq_q=130", "seq_k=77"}});
    cases.push_back({kernel, {"head_dim=128", "dtype=f16"}, {"batch=2", "heads=4", "seq_q=70", "seq_k=90"}});
  }
  cases.push_back({"flash_attention_varlen_causal", {"row_groups=2"}, {"batch=4", "seq_q=150", "seq_k=290"}});
  cases.push_back({"flash_attention_varlen", {"overlap=on", "block_n=32"}, {"batch=6", "seq_q=130", "seq_k=77"}});
  cases.push_back({"flash_attention_varlen_causal", {"overlap=on", "peel_first=on", "block_n=32"}, {"batch=6", "seq_q=130", "seq_k=77"}});
  cases.push_back({"flash_attention_varlen_gqa", {"group=3"}, {"heads=6", "batch=3", "seq_q=77", "seq_k=130"}});
  // The packed batch's backward: the same ragged batches (a sequence with no
  // query, a query with no key; NaN statistics between the sequences, which
  // no gradient may read), every variant, GQA groups of 3 and 4.
  cases.push_back({"flash_attention_varlen_bwd_prep", {}, {"batch=5", "heads=3", "seq_q=77"}});
  cases.push_back({"flash_attention_varlen_bwd_prep", {"head_dim=128", "dtype=f16", "block_m=32"}, {"batch=7", "seq_q=33"}});
  for (std::string suffix : {"", "_causal", "_sliding_window", "_gqa", "_alibi", "_softcap"}) {
    for (std::string kernel : {"flash_attention_varlen_bwd_dkdv" + suffix, "flash_attention_varlen_bwd_dq" + suffix}) {
      cases.push_back({kernel, {}, {"batch=5", "seq_q=100", "seq_k=130"}});
      cases.push_back({kernel, {"block_m=32", "block_n=16"}, {"batch=7", "seq_q=130", "seq_k=77"}});
      cases.push_back({kernel, {"head_dim=128", "dtype=f16"}, {"batch=3", "heads=4", "seq_q=70", "seq_k=90"}});
    }
  }
  for (std::string kernel : {"flash_attention_varlen_bwd_dkdv_gqa", "flash_attention_varlen_bwd_dq_gqa"}) {
    cases.push_back({kernel, {"group=3", "block_m=32", "block_n=32"}, {"batch=4", "heads=6", "seq_q=50", "seq_k=77"}});
    cases.push_back({kernel, {"group=4"}, {"batch=3", "heads=4", "seq_q=64", "seq_k=40"}});
  }
  // Decoding from a paged cache (shuffled pages, ragged lengths: an empty
  // sequence, one key) for every variant; pages of 16 to 256 keys.
  for (std::string suffix : {"", "_causal", "_sliding_window", "_alibi", "_softcap"}) {
    std::string kernel = "flash_attention_decode_paged" + suffix;
    cases.push_back({kernel, {"group=4", "page_size=16"}, {"batch=4", "seq_q=1", "seq_k=100", "splits=3"}});
    cases.push_back({kernel, {"group=5", "page_size=32", "block_n=16"}, {"batch=5", "kv_heads=2", "seq_q=3", "seq_k=150", "splits=1"}});
    cases.push_back({kernel, {"head_dim=128", "dtype=f16", "group=2", "page_size=256"}, {"batch=3", "seq_q=2", "seq_k=300", "splits=2"}});
  }
  cases.push_back({"flash_attention_decode_combine", {"group=4"}, {"seq_q=1", "splits=5"}});
  cases.push_back({"flash_attention_decode_combine", {"group=2"}, {"seq_q=3", "splits=9"}});
  cases.push_back({"flash_attention_decode_combine", {"head_dim=128", "dtype=f16", "group=3", "block_m=32"}, {"batch=3", "seq_q=5", "splits=1"}});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Registered, KernelTest, ::testing::ValuesIn(allCases()),
                         [](const auto &info) { return caseName(info.param); });

// Head dims that are not powers of two (the tiles pad them, or split them
// into power-of-two column tiles; the tensors keep d columns) and V/O head
// dims of their own (head_dim_v), on each kind of attention kernel: ragged
// N, seq_q != seq_k, GQA groups of 3, bf16 and f16.
class HeadDimTest : public ::testing::TestWithParam<Case> {};

TEST_P(HeadDimTest, MatchesReference) { runCase(GetParam(), /*canonicalize=*/true); }

std::vector<Case> headDimCases() {
  const std::vector<std::vector<std::string>> dims = {{"head_dim=8"},
                                                      {"head_dim=40"},
                                                      {"head_dim=72"},
                                                      {"head_dim=80"},
                                                      {"head_dim=96"},
                                                      {"head_dim=112"},
                                                      {"head_dim=160"},
                                                      {"head_dim=192"},
                                                      {"head_dim=200"},
                                                      {"head_dim=256"},
                                                      {"head_dim=192", "head_dim_v=128"},
                                                      {"head_dim=128", "head_dim_v=64"},
                                                      {"head_dim=24", "head_dim_v=136"}};
  std::vector<Case> cases;
  for (size_t i = 0; i < dims.size(); ++i) {
    auto with = [&](std::vector<std::string> more) {
      std::vector<std::string> settings = dims[i];
      settings.push_back(i % 2 ? "dtype=f16" : "dtype=bf16");
      settings.insert(settings.end(), more.begin(), more.end());
      return settings;
    };
    const std::vector<std::string> ragged = {"seq_q=37", "seq_k=70"};
    const std::vector<std::string> gqa = {"heads=6", "seq_q=70", "seq_k=37"};
    cases.push_back({"flash_attention_fwd_causal", with({}), ragged});
    cases.push_back({"flash_attention_fwd_gqa", with({"group=3"}), gqa});
    cases.push_back({"flash_attention_bwd_dkdv_causal", with({}), ragged});
    cases.push_back({"flash_attention_bwd_dq_causal", with({}), ragged});
    cases.push_back({"flash_attention_bwd_fused_gqa", with({"group=3"}), gqa});
    cases.push_back({"flash_attention_bwd_prep", with({}), {"seq_q=37"}});
    cases.push_back({"flash_attention_varlen_causal", with({}), {"batch=4", "seq_q=45"}});
    cases.push_back({"flash_attention_varlen_bwd_dkdv", with({}), {"batch=4", "seq_k=45"}});
    cases.push_back({"flash_attention_decode", with({"group=3"}), {"seq_k=77", "splits=2"}});
    cases.push_back({"flash_attention_decode_paged", with({"group=3"}), {"seq_k=77"}});
    cases.push_back({"flash_attention_decode_combine", with({"group=3"}), {"splits=3"}});
    // The forward kernels with the head dims as power-of-two column tiles
    // side by side (96: 64 + 32); overlapped loops and row groups too.
    cases.push_back({"flash_attention_fwd_causal", with({"split_columns=on"}), ragged});
    cases.push_back({"flash_attention_fwd_alibi",
                     with({"split_columns=on", "overlap=on", "row_groups=2", "block_m=64"}),
                     {"seq_q=130", "seq_k=77"}});
    cases.push_back({"flash_attention_fwd_document",
                     with({"split_columns=on", "overlap=on"}),
                     {"batch=2", "seq_q=200", "seq_k=260"}});
    cases.push_back(
        {"flash_attention_varlen_causal", with({"split_columns=on"}), {"batch=4", "seq_q=45"}});
    cases.push_back(
        {"flash_attention_decode_paged", with({"group=3", "split_columns=on"}), {"seq_k=77"}});
    // ... and the backward kernels (dK, dV, dQ as column parts).
    cases.push_back({"flash_attention_bwd_dkdv_causal", with({"split_columns=on"}), ragged});
    cases.push_back({"flash_attention_bwd_dkdv_softcap", with({"split_columns=on"}), ragged});
    cases.push_back({"flash_attention_bwd_dq_alibi", with({"split_columns=on"}), ragged});
    cases.push_back({"flash_attention_bwd_fused_gqa", with({"group=3", "split_columns=on"}), gqa});
    cases.push_back({"flash_attention_bwd_dq_document",
                     with({"split_columns=on"}),
                     {"batch=2", "seq_q=200", "seq_k=260"}});
    cases.push_back({"flash_attention_varlen_bwd_dq_causal",
                     with({"split_columns=on"}),
                     {"batch=4", "seq_q=45"}});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(HeadDims, HeadDimTest, ::testing::ValuesIn(headDimCases()),
                         [](const auto &info) { return caseName(info.param); });

TEST(KernelRegistry, ListsEveryExampleAndVariant) {
  for (const char *name :
       {"vector_add", "matmul", "row_softmax", "flash_attention_fwd", "flash_attention_fwd_causal",
        "flash_attention_fwd_sliding_window", "flash_attention_fwd_gqa",
        "flash_attention_fwd_alibi", "flash_attention_fwd_softcap"})
    EXPECT_NE(Registry::global().find(name), nullptr) << name;
}

} // namespace
