//===- TileDialectTest.cpp - the tile dialect's C++ API -------------------===//
//
// Type and attribute builders, op builders that infer result types, the
// verifiers reached from C++, and folding through the pattern driver.
//
//===----------------------------------------------------------------------===//

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace mlir;
using namespace tilec::tile;

namespace {

template <typename T> std::string print(const T &printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << printable;
  return text;
}

class TileDialectTest : public ::testing::Test {
protected:
  TileDialectTest() : builder(&context) {
    DialectRegistry registry;
    tilec::registerTilecDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    loc = builder.getUnknownLoc();
    module = ModuleOp::create(builder, loc);
    builder.setInsertionPointToEnd(module->getBody());
  }

  /// A function whose block arguments have `types`, with the builder placed
  /// inside it; the arguments are the values the test builds ops on.
  Block::BlockArgListType makeFunction(TypeRange types) {
    auto func = func::FuncOp::create(builder, loc, "f", builder.getFunctionType(types, {}));
    Block *body = func.addEntryBlock();
    builder.setInsertionPointToStart(body);
    func::ReturnOp::create(builder, loc);
    builder.setInsertionPointToStart(body);
    return body->getArguments();
  }

  RankedTensorType tensor(ArrayRef<int64_t> shape, Type element) {
    return RankedTensorType::get(shape, element);
  }

  MLIRContext context;
  OpBuilder builder;
  Location loc = UnknownLoc::get(&context);
  OwningOpRef<ModuleOp> module;
};

//===----------------------------------------------------------------------===//
// Types and enums
//===----------------------------------------------------------------------===//

TEST_F(TileDialectTest, PointerTypePrintsAndKeepsPointee) {
  auto ptr = PointerType::get(&context, builder.getBF16Type());
  EXPECT_EQ(ptr.getPointeeType(), builder.getBF16Type());
  EXPECT_EQ(print(Type(ptr)), "!tile.ptr<bf16>");
  EXPECT_EQ(ptr, PointerType::get(&context, builder.getBF16Type())) << "types are uniqued";
}

TEST_F(TileDialectTest, PointerTypeRejectsNonScalarPointee) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto ptr = PointerType::getChecked([&] { return emitError(loc); }, &context,
                                     Type(builder.getIndexType()));
  EXPECT_FALSE(ptr);
  EXPECT_EQ(message, "expected pointee type to be an integer or float type, got 'index'");
}

TEST_F(TileDialectTest, TensorDescTypeBlock) {
  auto desc = TensorDescType::get(&context, {64, 128}, builder.getF16Type());
  EXPECT_EQ(desc.getRank(), 2u);
  EXPECT_EQ(desc.getBlockType(), tensor({64, 128}, builder.getF16Type()));
  EXPECT_EQ(print(Type(desc)), "!tile.desc<64x128xf16>");
}

TEST_F(TileDialectTest, TensorDescTypeRejectsEmptyBlock) {
  int errors = 0;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &) {
    ++errors;
    return success();
  });
  auto emit = [&] { return emitError(loc); };
  Type f32 = builder.getF32Type();
  EXPECT_FALSE(TensorDescType::getChecked(emit, &context, ArrayRef<int64_t>{64, 0}, f32));
  EXPECT_FALSE(TensorDescType::getChecked(emit, &context, ArrayRef<int64_t>{}, f32));
  EXPECT_EQ(errors, 2);
}

TEST_F(TileDialectTest, EnumsRoundTripThroughStrings) {
  for (ReduceKind kind : {ReduceKind::sum, ReduceKind::max, ReduceKind::min})
    EXPECT_EQ(symbolizeReduceKind(stringifyReduceKind(kind)), kind);
  EXPECT_FALSE(symbolizeReduceKind("avg").has_value());
  EXPECT_EQ(symbolizePaddingOption("nan"), PaddingOption::nan);
  EXPECT_EQ(stringifyPaddingOption(PaddingOption::zero), "zero");
}

//===----------------------------------------------------------------------===//
// Op builders
//===----------------------------------------------------------------------===//

TEST_F(TileDialectTest, ShapeBuildersInferResultTypes) {
  Type f32 = builder.getF32Type();
  auto args = makeFunction({f32, tensor({128}, f32), tensor({64, 128}, builder.getBF16Type())});

  auto splat = SplatOp::create(builder, loc, args[0], ArrayRef<int64_t>{128, 64});
  EXPECT_EQ(splat.getType(), tensor({128, 64}, f32));

  auto column = ExpandDimsOp::create(builder, loc, args[1], 1);
  EXPECT_EQ(column.getType(), tensor({128, 1}, f32));
  auto row = ExpandDimsOp::create(builder, loc, args[1], 0);
  EXPECT_EQ(row.getType(), tensor({1, 128}, f32));

  auto kt = TransOp::create(builder, loc, args[2], ArrayRef<int64_t>{1, 0});
  EXPECT_EQ(kt.getType(), tensor({128, 64}, builder.getBF16Type()));

  auto bf16 = CastOp::create(builder, loc, splat, builder.getBF16Type());
  EXPECT_EQ(bf16.getType(), tensor({128, 64}, builder.getBF16Type()));

  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(TileDialectTest, ReduceBuilderDropsTheAxis) {
  Type f32 = builder.getF32Type();
  auto args = makeFunction({tensor({128, 64}, f32), tensor({32}, f32)});
  auto rowMax = ReduceOp::create(builder, loc, ReduceKind::max, args[0], 1);
  EXPECT_EQ(rowMax.getType(), tensor({128}, f32));
  auto colSum = ReduceOp::create(builder, loc, ReduceKind::sum, args[0], 0);
  EXPECT_EQ(colSum.getType(), tensor({64}, f32));
  auto total = ReduceOp::create(builder, loc, ReduceKind::sum, args[1], 0);
  EXPECT_EQ(total.getType(), f32) << "a 1-D reduction yields a scalar";
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(TileDialectTest, DescriptorBuildersChainIntoAVerifiedKernel) {
  Type bf16 = builder.getBF16Type();
  auto descType = TensorDescType::get(&context, {64, 128}, bf16);
  auto args = makeFunction({PointerType::get(&context, bf16), builder.getI32Type(),
                            builder.getI64Type()});
  Value n = args[1], stride = args[2];
  auto desc = MakeDescOp::create(builder, loc, descType, args[0], ValueRange{n, n},
                                 ValueRange{stride, stride});
  auto pid = ProgramIdOp::create(builder, loc, uint32_t{0});
  auto block = LoadBlockOp::create(builder, loc, desc, ValueRange{pid, n});
  EXPECT_EQ(block.getType(), descType.getBlockType());
  EXPECT_EQ(block.getPadding(), PaddingOption::zero);
  StoreBlockOp::create(builder, loc, desc, ValueRange{pid, n}, block);
  EXPECT_TRUE(succeeded(verify(*module)));
}

TEST_F(TileDialectTest, OnlineSoftmaxResultsAndFoldedScale) {
  Type f32 = builder.getF32Type();
  auto args = makeFunction({tensor({128, 64}, f32), tensor({128}, f32)});
  auto step = OnlineSoftmaxOp::create(builder, loc, ValueRange{args[0]}, args[1], 0.125f);
  EXPECT_EQ(step.getMNew().getType(), args[1].getType());
  EXPECT_EQ(step.getAlpha().getType(), args[1].getType());
  ASSERT_EQ(step.getP().size(), 1u);
  EXPECT_EQ(step.getP()[0].getType(), args[0].getType());
  EXPECT_NEAR(step.getLog2Scale(), 0.125 / std::log(2.0), 1e-12);
  EXPECT_TRUE(succeeded(verify(*module)));
}

//===----------------------------------------------------------------------===//
// Verifiers reached from C++
//===----------------------------------------------------------------------===//

TEST_F(TileDialectTest, DotVerifierReportsShapeMismatch) {
  Type bf16 = builder.getBF16Type(), f32 = builder.getF32Type();
  auto args = makeFunction({tensor({16, 32}, bf16), tensor({16, 8}, bf16), tensor({16, 8}, f32)});
  auto dot = DotOp::create(builder, loc, args[2].getType(), args[0], args[1], args[2]);
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_TRUE(failed(verify(dot)));
  EXPECT_EQ(message,
            "'tile.dot' op expected the columns of A (32) to equal the rows of B (16)");
}

TEST_F(TileDialectTest, ExpandDimsBuilderWithBadAxisFailsVerification) {
  auto args = makeFunction({tensor({8}, builder.getF32Type())});
  auto op = ExpandDimsOp::create(builder, loc, args[0], 5);
  ScopedDiagnosticHandler handler(&context, [](Diagnostic &) { return success(); });
  EXPECT_TRUE(failed(verify(op)));
}

//===----------------------------------------------------------------------===//
// Folding and canonicalization from C++
//===----------------------------------------------------------------------===//

TEST_F(TileDialectTest, TransposeTwiceCanonicalizesAway) {
  const char *source = R"mlir(
    func.func @k(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
      %t = tile.trans %x order = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
      %u = tile.trans %t order = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
      return %u : tensor<4x8xf32>
    }
  )mlir";
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(parsed);
  RewritePatternSet patterns(&context);
  TransOp::getCanonicalizationPatterns(patterns, &context);
  ASSERT_TRUE(succeeded(applyPatternsGreedily(*parsed, std::move(patterns))));

  auto func = cast<func::FuncOp>(parsed->getBody()->front());
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  EXPECT_EQ(ret.getOperand(0), func.getArgument(0));
  int transposes = 0;
  parsed->walk([&](TransOp) { ++transposes; });
  EXPECT_EQ(transposes, 0);
}

TEST_F(TileDialectTest, ParsedIRPrintsBackIdentically) {
  const char *source = R"mlir(
    func.func @k(%q: !tile.desc<128x64xbf16>, %m: tensor<128xf32>, %s: tensor<128x64xf32>) {
      %pid = tile.program_id 0
      %blk = tile.load_block %q[%pid, %pid] padding = nan : !tile.desc<128x64xbf16> -> tensor<128x64xbf16>
      %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 : tensor<128x64xf32>, tensor<128xf32>
      return
    }
  )mlir";
  OwningOpRef<ModuleOp> parsed = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(parsed);
  std::string once = print(*parsed->getOperation());
  OwningOpRef<ModuleOp> reparsed = parseSourceString<ModuleOp>(once, &context);
  ASSERT_TRUE(reparsed);
  EXPECT_EQ(print(*reparsed->getOperation()), once);
  EXPECT_NE(once.find("padding = nan"), std::string::npos);
}

} // namespace
