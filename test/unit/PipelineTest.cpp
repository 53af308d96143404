//===- PipelineTest.cpp - pipeline options and the tilec.target record ----===//
//
// The textual face of a GpuTarget: the pipeline option string tilec prints
// (--print-pipeline) and the module attribute it records (tilec.target)
// must both carry every field, and read back to the same target.
//
//===----------------------------------------------------------------------===//

#include "tilec/Target/Pipeline.h"
#include "tilec/InitAll.h"
#include "tilec/Support/Exp2Polynomial.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tilec;

namespace {

/// A target whose every field differs from GpuTarget's default.
GpuTarget unusualTarget() {
  GpuTarget target;
  target.arch = "sm_90a";
  target.numWarps = 8;
  target.assumeAligned = true;
  target.pipelineStages = 3;
  target.aInShared = true;
  target.minBlocksPerSM = 2;
  target.wgmma = true;
  target.tma = true;
  target.warpSpecialize = true;
  target.pingPong = true;
  target.prefetchLoads = true;
  target.persistent = true;
  target.tileCounter = true;
  target.tileSlots = 2;
  target.exp2OnFma = 4;
  target.waitBeforeNextDot = true;
  target.keepWorkAboveWaits = true;
  target.f32StagingBytes = 32;
  target.lowering = "tilegpu";
  return target;
}

void expectSameTarget(const GpuTarget &a, const GpuTarget &b) {
  EXPECT_EQ(a.arch, b.arch);
  EXPECT_EQ(a.numWarps, b.numWarps);
  EXPECT_EQ(a.assumeAligned, b.assumeAligned);
  EXPECT_EQ(a.pipelineStages, b.pipelineStages);
  EXPECT_EQ(a.aInShared, b.aInShared);
  EXPECT_EQ(a.minBlocksPerSM, b.minBlocksPerSM);
  EXPECT_EQ(a.wgmma, b.wgmma);
  EXPECT_EQ(a.tma, b.tma);
  EXPECT_EQ(a.warpSpecialize, b.warpSpecialize);
  EXPECT_EQ(a.pingPong, b.pingPong);
  EXPECT_EQ(a.prefetchLoads, b.prefetchLoads);
  EXPECT_EQ(a.persistent, b.persistent);
  EXPECT_EQ(a.tileCounter, b.tileCounter);
  EXPECT_EQ(a.tileSlots, b.tileSlots);
  EXPECT_EQ(a.exp2OnFma, b.exp2OnFma);
  EXPECT_EQ(a.waitBeforeNextDot, b.waitBeforeNextDot);
  EXPECT_EQ(a.keepWorkAboveWaits, b.keepWorkAboveWaits);
  EXPECT_EQ(a.f32StagingBytes, b.f32StagingBytes);
  EXPECT_EQ(a.lowering, b.lowering);
}

TEST(PipelineOptions, ThePrintedFlagSpellsOutAndReadsBackEveryField) {
  GpuTarget target = unusualTarget();
  std::string flag = pipelineFlag(kGpuPipelineName, target);
  EXPECT_EQ(flag, "--tilec-gpu-pipeline=\"a-in-shared=true arch=sm_90a assume-aligned=true "
                  "exp2-on-fma=4 f32-staging-bytes=32 keep-work-above-waits=true lowering=tilegpu "
                  "min-blocks-per-sm=2 "
                  "num-warps=8 persistent=true "
                  "ping-pong=true "
                  "pipeline-stages=3 "
                  "prefetch-loads=true tile-counter=true tile-slots=2 "
                  "tma=true wait-before-next-dot=true warp-specialize=true wgmma=true\"");
  std::string values = flag.substr(flag.find('"') + 1);
  values.pop_back();
  GpuPipelineOptions parsed;
  ASSERT_TRUE(mlir::succeeded(parsed.parseFromString(values)));
  expectSameTarget(getGpuTarget(parsed), target);
}

TEST(PipelineOptions, VerifyNamesTheOptionWithItsPrefix) {
  GpuTarget target;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.numWarps = 6;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--num-warps must be a power of two in [1, 32], got 6");
  target.numWarps = 4;
  target.wgmma = true;
  EXPECT_EQ(verifyGpuTarget(target, ""), "wgmma needs arch=sm_90a (got sm_80)");
  target.arch = "sm_90";
  EXPECT_EQ(verifyGpuTarget(target, ""), "unsupported arch 'sm_90'; accepted: sm_80, sm_90a");
  target.arch = "sm_90a";
  target.lowering = "fast";
  EXPECT_EQ(verifyGpuTarget(target, "--"),
            "unsupported --lowering 'fast'; accepted: tile-to-llvm, tilegpu");
  target.lowering = "tilegpu";
  target.minBlocksPerSM = 2;
  EXPECT_EQ(verifyGpuTarget(target, ""), "lowering=tilegpu does not take min-blocks-per-sm yet");
  target.minBlocksPerSM = 0;
  target.tma = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"),
            "--tma fills the shared-memory rings of wgmma operands: it needs --wgmma, "
            "--assume-aligned and --pipeline-stages of at least 2 (got wgmma=true "
            "assume-aligned=false pipeline-stages=2)");
  target.assumeAligned = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.warpSpecialize = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.tma = false;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--warp-specialize needs --tma");
  target.tma = true;
  target.pingPong = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.warpSpecialize = false;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--ping-pong needs --warp-specialize");
  target.warpSpecialize = true;
  target.exp2OnFma = 65;
  EXPECT_EQ(verifyGpuTarget(target, ""), "exp2-on-fma must be in [0, 64], got 65");
  target.exp2OnFma = 4;
  EXPECT_EQ(verifyGpuTarget(target, ""), "");
  target.persistent = target.tileCounter = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.persistent = false;
  EXPECT_EQ(verifyGpuTarget(target, "--"),
            "--tile-counter needs --persistent and --warp-specialize");
  target.tileCounter = false;
  target.persistent = true;
  target.tileSlots = 3;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--tile-slots must be 1 or 2, got 3");
  target.tileSlots = 2;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "");
  target.persistent = false;
  EXPECT_EQ(verifyGpuTarget(target, "--"),
            "--tile-slots=2 needs --persistent and --warp-specialize");
  target.tileSlots = 1;
  target.lowering = "tile-to-llvm";
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--tma needs --arch=sm_90a and --lowering=tilegpu");
  target.tma = target.warpSpecialize = target.pingPong = false;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--exp2-on-fma needs --lowering=tilegpu");
  target.exp2OnFma = 0;
  target.waitBeforeNextDot = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--wait-before-next-dot needs --lowering=tilegpu");
  target.waitBeforeNextDot = false;
  target.keepWorkAboveWaits = true;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--keep-work-above-waits needs --lowering=tilegpu");
  target.keepWorkAboveWaits = false;
  target.f32StagingBytes = 64;
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--f32-staging-bytes must be 128 or 32, got 64");
}

class TargetRecord : public ::testing::Test {
protected:
  TargetRecord() : context(registry()) {
    context.loadAllAvailableDialects();
    module = mlir::ModuleOp::create(mlir::UnknownLoc::get(&context));
  }

  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry r;
    registerTilecDialects(r);
    return r;
  }

  /// Diagnostics emitted while `fn` runs, one per line.
  template <typename Fn> std::string diagnostics(Fn &&fn) {
    std::string text;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      text += d.str() + "\n";
      return mlir::success();
    });
    fn();
    return text;
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

TEST_F(TargetRecord, RoundTripsEveryField) {
  GpuTarget target = unusualTarget();
  (*module)->setAttr(kTargetAttrName, getTargetAttr(&context, target));
  mlir::FailureOr<GpuTarget> read = readTargetAttr(*module);
  ASSERT_TRUE(mlir::succeeded(read));
  expectSameTarget(*read, target);
}

TEST_F(TargetRecord, WithoutARecordTheBaseStands) {
  GpuTarget base = unusualTarget();
  mlir::FailureOr<GpuTarget> read = readTargetAttr(*module, base);
  ASSERT_TRUE(mlir::succeeded(read));
  expectSameTarget(*read, base);
}

TEST_F(TargetRecord, APartialRecordOverridesOnlyItsEntries) {
  mlir::Builder b(&context);
  (*module)->setAttr(kTargetAttrName,
                  b.getDictionaryAttr({b.getNamedAttr("num_warps", b.getI64IntegerAttr(2))}));
  mlir::FailureOr<GpuTarget> read = readTargetAttr(*module, unusualTarget());
  ASSERT_TRUE(mlir::succeeded(read));
  GpuTarget expected = unusualTarget();
  expected.numWarps = 2;
  expectSameTarget(*read, expected);
}

TEST_F(TargetRecord, BadEntriesAreNamed) {
  mlir::Builder b(&context);
  (*module)->setAttr(kTargetAttrName,
                  b.getDictionaryAttr({b.getNamedAttr("wgmma", b.getI64IntegerAttr(1))}));
  std::string text = diagnostics([&] { EXPECT_TRUE(mlir::failed(readTargetAttr(*module))); });
  EXPECT_NE(text.find("'tilec.target' entry 'wgmma' must be a bool, got 1 : i64"),
            std::string::npos)
      << text;
  (*module)->setAttr(kTargetAttrName,
                  b.getDictionaryAttr({b.getNamedAttr("num_warps", b.getI32IntegerAttr(4))}));
  text = diagnostics([&] { EXPECT_TRUE(mlir::failed(readTargetAttr(*module))); });
  EXPECT_NE(text.find("'num_warps' must be an i64 integer, got 4 : i32"), std::string::npos)
      << text;
  (*module)->setAttr(kTargetAttrName, b.getStringAttr("sm_90a"));
  text = diagnostics([&] { EXPECT_TRUE(mlir::failed(readTargetAttr(*module))); });
  EXPECT_NE(text.find("'tilec.target' must be a dictionary"), std::string::npos) << text;
}

} // namespace

namespace {

/// The lowering's polynomial exp2 (GpuTarget::exp2OnFma) in its own steps,
/// against the exact value: within the error its header states on every
/// argument the online softmax can give it, and exactly 0 and 1 where the
/// softmax needs them (masked scores, the row maximum).
TEST(Exp2Polynomial, MatchesExp2WhereTheSoftmaxUsesIt) {
  double worst = 0;
  for (double x = -126.0; x <= 1.0; x += 1.0 / 4096) { // steps of 2^-12: every f in [-0.5, 0.5]
    double want = std::exp2(static_cast<double>(static_cast<float>(x)));
    double got = exp2poly::evaluate(static_cast<float>(x));
    worst = std::max(worst, std::abs(got - want) / want);
  }
  EXPECT_LT(worst, 1.05e-4);
  EXPECT_GT(worst, 1e-5) << "the cubic's error, not exact: the loop above measured nothing";
  EXPECT_EQ(exp2poly::evaluate(0.0f), 1.0f);
  EXPECT_EQ(exp2poly::evaluate(-std::numeric_limits<float>::infinity()), 0.0f);
  EXPECT_EQ(exp2poly::evaluate(-1000.0f), 0.0f);
  EXPECT_EQ(exp2poly::evaluate(std::numeric_limits<float>::quiet_NaN()), 0.0f);
  EXPECT_LT(exp2poly::evaluate(-126.6f), 0x1p-126f); // where MUFU.EX2 flushes to 0
  EXPECT_NEAR(exp2poly::evaluate(100.25f), std::exp2(100.25), std::exp2(100.25) * 1.05e-4);
  // A rounding error above 0 (s·t - m with m rounded) stays near 1.
  EXPECT_NEAR(exp2poly::evaluate(1e-6f), 1.0, 2e-6);
}

} // namespace
