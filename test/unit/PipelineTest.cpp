//===- PipelineTest.cpp - pipeline options and the tilec.target record ----===//
//
// The textual face of a GpuTarget: the pipeline option string tilec prints
// (--print-pipeline) and the module attribute it records (tilec.target)
// must both carry every field, and read back to the same target.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <gtest/gtest.h>

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
  EXPECT_EQ(a.lowering, b.lowering);
}

TEST(PipelineOptions, ThePrintedFlagSpellsOutAndReadsBackEveryField) {
  GpuTarget target = unusualTarget();
  std::string flag = pipelineFlag(kGpuPipelineName, target);
  EXPECT_EQ(flag, "--tilec-gpu-pipeline=\"a-in-shared=true arch=sm_90a assume-aligned=true "
                  "lowering=tilegpu min-blocks-per-sm=2 num-warps=8 persistent=true ping-pong=true "
                  "pipeline-stages=3 "
                  "prefetch-loads=true "
                  "tma=true warp-specialize=true wgmma=true\"");
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
  target.lowering = "tile-to-llvm";
  EXPECT_EQ(verifyGpuTarget(target, "--"), "--tma needs --arch=sm_90a and --lowering=tilegpu");
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
