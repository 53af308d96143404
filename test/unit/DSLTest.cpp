//===- DSLTest.cpp - the DSL builds what it says, and blames the right line ===//
//
// Wrong programs must produce an MLIR diagnostic at the line of the user's
// own C++ (this file), and `finish()` must fail; nothing asserts or throws.
//
//===----------------------------------------------------------------------===//

#include "tilec/DSL/DSL.h"
#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/InitAll.h"
#include "tilec/Interpreter/Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

using namespace tilec;
using namespace tilec::dsl;

namespace {

struct Reported {
  std::string file;
  unsigned line = 0;
  std::string message;
};

class DSLTest : public ::testing::Test {
protected:
  DSLTest()
      : handler(&context, [this](mlir::Diagnostic &diag) {
          Reported r;
          r.message = diag.str();
          if (auto loc = mlir::dyn_cast<mlir::FileLineColLoc>(diag.getLocation())) {
            r.file = loc.getFilename().str();
            r.line = loc.getLine();
          }
          if (diag.getSeverity() == mlir::DiagnosticSeverity::Error)
            errors.push_back(r);
          return mlir::success();
        }) {}

  /// The first error, which must be in this file at `line`.
  void expectErrorAt(unsigned line, const std::string &fragment) {
    ASSERT_FALSE(errors.empty()) << "no diagnostic";
    EXPECT_NE(errors[0].file.find("DSLTest.cpp"), std::string::npos) << errors[0].file;
    EXPECT_EQ(errors[0].line, line) << errors[0].message;
    EXPECT_NE(errors[0].message.find(fragment), std::string::npos) << errors[0].message;
  }

  mlir::MLIRContext context;
  std::vector<Reported> errors;
  mlir::ScopedDiagnosticHandler handler;
};

TEST_F(DSLTest, CleanProgramBuildsAndHasItsSignature) {
  KernelBuilder k(context, "scale");
  TensorArg x = k.tensor("x", DType::BF16, 2);
  Tile factor = k.scalar("factor", DType::F32);
  TensorDesc blocks = x.desc({16, 32});
  Tile row0 = k.programId(0) * 16;
  Tile scaled = blocks.load({row0, 0}).to(DType::F32) * factor;
  blocks.store({row0, 0}, scaled.to(DType::BF16));
  const KernelSignature &sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(sig.size(), 2u);
  EXPECT_EQ(sig[0].name, "x");
  EXPECT_EQ(sig[0].kind, KernelParam::Kind::Tensor);
  EXPECT_EQ(sig[0].numFunctionArgs(), 5u);
  EXPECT_EQ(sig[1].kind, KernelParam::Kind::Scalar);
  auto kernel = mlir::cast<mlir::func::FuncOp>(module->getBody()->front());
  EXPECT_EQ(kernel.getNumArguments(), 6u);
  int dots = 0, casts = 0;
  module->walk([&](tile::CastOp) { ++casts; });
  module->walk([&](tile::DotOp) { ++dots; });
  EXPECT_EQ(casts, 2);
  EXPECT_EQ(dots, 0);
}

TEST_F(DSLTest, DotShapeMismatchPointsAtTheDotLine) {
  KernelBuilder k(context, "bad_dot");
  Tile a = k.zeros({16, 32}, DType::BF16), b = k.zeros({16, 8}, DType::BF16);
  unsigned line = __LINE__ + 1;
  Tile c = dot(a, b, 0.0);
  (void)c;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "expected the columns of A (32) to equal the rows of B (16)");
}

TEST_F(DSLTest, IncompatibleBroadcastPointsAtTheOperator) {
  KernelBuilder k(context, "bad_add");
  Tile a = k.zeros({128, 64}, DType::F32), b = k.zeros({64, 64}, DType::F32);
  unsigned line = __LINE__ + 1;
  Tile c = a + b;
  (void)c;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "cannot broadcast shapes 128x64 and 64x64 in '+'");
}

TEST_F(DSLTest, AMistakeInCodeRunTwiceIsReportedOnce) {
  // Templates run the user's code more than once (attention calls a mask in
  // two of its three key loops): the same mistake at the same line is one error.
  KernelBuilder k(context, "twice");
  Tile a = k.zeros({128, 64}, DType::F32), b = k.zeros({64, 64}, DType::F32);
  unsigned line = __LINE__ + 1;
  auto userCode = [&] { return a + b; };
  userCode();
  userCode();
  EXPECT_FALSE(k.finish());
  EXPECT_EQ(errors.size(), 1u);
  expectErrorAt(line, "cannot broadcast shapes 128x64 and 64x64 in '+'");
}

TEST_F(DSLTest, MixedElementTypesNeedAConversion) {
  KernelBuilder k(context, "bad_types");
  Tile a = k.zeros({16, 16}, DType::F32), b = k.zeros({16, 16}, DType::BF16);
  unsigned line = __LINE__ + 1;
  Tile c = a * b;
  (void)c;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "element types differ in '*': f32 and bf16");
}

TEST_F(DSLTest, WrongRankDescriptor) {
  KernelBuilder k(context, "bad_desc");
  TensorArg x = k.tensor("x", DType::F32, 3);
  unsigned line = __LINE__ + 1;
  TensorDesc d = x.desc({64, 64});
  (void)d;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "needs 3 positive block dimensions, got 64x64");
}

TEST_F(DSLTest, LoopBodyMustKeepItsStateTypes) {
  KernelBuilder k(context, "bad_loop");
  Tile init = k.zeros({16}, DType::F32);
  unsigned line = __LINE__ + 1;
  k.forRange(0, 10, 1, {init}, [&](Tile, std::vector<Tile> s) -> std::vector<Tile> {
    return {s[0].col()};
  });
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "loop body value 0 changes type from tensor<16xf32> to tensor<16x1xf32>");
}

TEST_F(DSLTest, OnlineSoftmaxWantsF32) {
  KernelBuilder k(context, "bad_softmax");
  Tile s = k.zeros({16, 16}, DType::BF16), m = k.full({16}, -1e30, DType::F32);
  unsigned line = __LINE__ + 1;
  SoftmaxStep step = onlineSoftmax(s, m, 0.125);
  (void)step;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "onlineSoftmax() works on f32 scores");
}

TEST_F(DSLTest, SoftmaxPartsNeedTheRowsOfTheMax) {
  KernelBuilder k(context, "bad_softmax_parts");
  Tile s0 = k.zeros({16, 16}, DType::F32), s1 = k.zeros({8, 16}, DType::F32);
  Tile m = k.full({16}, -1e30, DType::F32);
  unsigned line = __LINE__ + 1;
  SoftmaxParts step = onlineSoftmax({s0, s1}, m, 0.125);
  (void)step;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "onlineSoftmax() takes 2-D score tiles and a 1-D running max, one per score row");
}

TEST_F(DSLTest, TransposeOfAVector) {
  KernelBuilder k(context, "bad_transpose");
  Tile v = k.iota(8);
  unsigned line = __LINE__ + 1;
  Tile t = v.t();
  (void)t;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, ".t() transposes 2-D tiles; this one is 8");
}

TEST_F(DSLTest, LoadThroughANumber) {
  KernelBuilder k(context, "bad_load");
  Tile n = k.scalar("n", DType::F32);
  unsigned line = __LINE__ + 1;
  Tile x = load(n);
  (void)x;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "load() reads through a pointer or a tile of pointers");
}

TEST_F(DSLTest, LoadOfOneValueTakesAScalarMask) {
  KernelBuilder k(context, "bad_scalar_load");
  Tile p = k.pointer("p", DType::I32);
  unsigned line = __LINE__ + 1;
  Tile x = load(p, k.iota(4) < 2);
  (void)x;
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "load() of one value takes a scalar i1 mask");
}

TEST_F(DSLTest, LoadOfOneValueRunsGuarded) {
  // out[0] = p[1] when n > 1, else -7: one value for the whole program.
  KernelBuilder k(context, "scalar_load");
  Tile p = k.pointer("p", DType::I32), out = k.pointer("out", DType::I32);
  Tile n = k.scalar("n", DType::I32);
  Tile v = load(p + 1, n > 1, -7);
  EXPECT_TRUE(v.isScalar());
  store(out + k.iota(1), v + k.zeros({1}, DType::I32));
  KernelSignature signature = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  for (int64_t size : {3, 1}) {
    std::vector<HostBuffer> memory = {{"p", DType::I32, {5, 6, 7}}, {"out", DType::I32, {0}}};
    ASSERT_TRUE(interpret(*module, "scalar_load", signature,
                          {PointerBinding{0}, PointerBinding{1}, static_cast<double>(size)},
                          {1, 1, 1}, memory));
    EXPECT_EQ(memory[1].data[0], size > 1 ? 6 : -7);
  }
}

TEST_F(DSLTest, UnitStrideTensorsGatherWithoutReadingTheirStride) {
  // out[i] = ids[1, i - 1] where 0 <= i - 1 < ids.dim(1), else -1.
  KernelBuilder k(context, "gather_row");
  TensorArg ids = k.tensor("ids", DType::I32, 2, InnerStride::One);
  Tile out = k.pointer("out", DType::I32);
  Tile col = k.iota(8) - 1;
  Tile inside = inRange(col, ids.dim(1));
  Tile row = ids.base() + ids.stride(0) + col.to(DType::I64) * ids.stride(1);
  store(out + k.iota(8), load(row, inside, -1));
  KernelSignature signature = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  ASSERT_EQ(signature.size(), 2u);
  EXPECT_TRUE(signature[0].unitStride);
  EXPECT_EQ(signature[0].numFunctionArgs(), 5u); // the stride is still an argument
  auto fn = *module->getOps<mlir::func::FuncOp>().begin();
  EXPECT_TRUE(fn.getArgument(4).use_empty()); // ... that nothing reads
  EXPECT_FALSE(fn.getArgument(3).use_empty());
  // A binding whose innermost stride is not 1 reads as if it were (the
  // runtime refuses such launches; see RuntimeTest).
  std::vector<HostBuffer> memory = {{"ids", DType::I32, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
                                    {"out", DType::I32, std::vector<double>(8, 0)}};
  ASSERT_TRUE(interpret(*module, "gather_row", signature,
                        {TensorBinding{0, {2, 5}, {5, 3}}, PointerBinding{1}}, {1, 1, 1}, memory));
  EXPECT_EQ(memory[1].data, (std::vector<double>{-1, 5, 6, 7, 8, 9, -1, -1}));
}

TEST_F(DSLTest, InRangeComparesIntegers) {
  KernelBuilder k(context, "in_range");
  Tile x = k.zeros({4}, DType::F32);
  unsigned line = __LINE__ + 1;
  (void)inRange(x, 3);
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "inRange() compares integers");
}

TEST_F(DSLTest, FloatDividedByANumberMultipliesByItsReciprocal) {
  // x / 20 is x * 0.05 (no division per element); x / y and integers divide.
  KernelBuilder k(context, "divide");
  Tile p = k.pointer("p", DType::F32), out = k.pointer("out", DType::F32);
  Tile x = load(p + k.iota(4));
  store(out + k.iota(4), x / 20.0 + x / (x + 1.0));
  Tile i = k.iota(4) / 3;
  EXPECT_EQ(i.dtype(), DType::I32);
  KernelSignature signature = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  int divisions = 0, integerDivisions = 0, multiplies = 0;
  module->walk([&](mlir::arith::DivFOp) { ++divisions; });
  module->walk([&](mlir::arith::DivSIOp) { ++integerDivisions; });
  module->walk([&](mlir::arith::MulFOp) { ++multiplies; });
  EXPECT_EQ(divisions, 1); // x / (x + 1) only
  EXPECT_EQ(integerDivisions, 1);
  EXPECT_EQ(multiplies, 1);
  std::vector<HostBuffer> memory = {{"p", DType::F32, {1, -3, 7, 40}},
                                    {"out", DType::F32, {0, 0, 0, 0}}};
  ASSERT_TRUE(interpret(*module, "divide", signature, {PointerBinding{0}, PointerBinding{1}},
                        {1, 1, 1}, memory));
  for (int e = 0; e < 4; ++e) {
    double x = memory[0].data[e];
    EXPECT_NEAR(memory[1].data[e], x / 20 + x / (x + 1), 1e-6 * (1 + std::fabs(x)));
  }
}

TEST_F(DSLTest, ContractFloatsMarksFloatArithmeticWhileItLives) {
  // Inside the scope float +, -, * may become fmas (fastmath contract);
  // integer arithmetic and code outside the scope keep one rounding each.
  KernelBuilder k(context, "contract");
  Tile p = k.pointer("p", DType::F32), out = k.pointer("out", DType::F32);
  Tile x = load(p + k.iota(4));
  Tile inside, integer, outside = x * 2.0 + 1.0;
  {
    ContractFloats contract(k);
    inside = x * 3.0 - x;
    integer = k.iota(4) * 2 + 1;
    EXPECT_TRUE(k.contractsFloats());
  }
  EXPECT_FALSE(k.contractsFloats());
  Tile after = x + 4.0;
  auto contracted = [](Tile t) {
    auto flags =
        t.value().getDefiningOp()->getAttrOfType<mlir::arith::FastMathFlagsAttr>("fastmath");
    return flags &&
           mlir::arith::bitEnumContainsAll(flags.getValue(), mlir::arith::FastMathFlags::contract);
  };
  ASSERT_TRUE(mlir::isa<mlir::arith::SubFOp>(inside.value().getDefiningOp()));
  EXPECT_TRUE(contracted(inside));
  EXPECT_TRUE(mlir::cast<mlir::arith::SubFOp>(inside.value().getDefiningOp())
                  .getLhs()
                  .getDefiningOp<mlir::arith::MulFOp>()
                  .getFastmath() == mlir::arith::FastMathFlags::contract);
  ASSERT_TRUE(mlir::isa<mlir::arith::AddIOp>(integer.value().getDefiningOp()));
  EXPECT_FALSE(integer.value().getDefiningOp()->hasAttr("fastmath"));
  EXPECT_FALSE(contracted(outside));
  EXPECT_FALSE(contracted(after));
  store(out + k.iota(4), inside + outside + after + integer.to(DType::F32));
  EXPECT_TRUE(k.finish());
}

TEST_F(DSLTest, BroadcastingOperatorsBuildBroadcasts) {
  KernelBuilder k(context, "broadcasting");
  Tile acc = k.zeros({8, 4}, DType::F32), perRow = k.zeros({8}, DType::F32);
  Tile scaled = acc * perRow.col() + 1.0;
  EXPECT_EQ(scaled.shape(), (Shape{8, 4}));
  Tile mask = k.iota(4).row() < k.iota(8).col();
  EXPECT_EQ(mask.shape(), (Shape{8, 4}));
  EXPECT_EQ(mask.dtype(), DType::I1);
  Tile picked = where(mask, scaled, -1.0);
  EXPECT_EQ(picked.shape(), (Shape{8, 4}));
  auto module = k.finish();
  ASSERT_TRUE(module);
  int broadcasts = 0;
  module->walk([&](tile::BroadcastOp) { ++broadcasts; });
  EXPECT_GE(broadcasts, 3);
}

// The function whose derivative the DSL takes, in double precision.
double chain(double x) {
  return 3 * std::tanh(x / 3) + x * x / (x + 4) + std::max(x, 0.25) * std::exp2(x) -
         std::log(std::fabs(x) + 1) + std::sqrt(x * x + 1) + (x > 0.5 ? 2 * x : -x) +
         std::exp(-x) * std::log2(x + 3);
}

TEST_F(DSLTest, DerivativeOfAnElementwiseChainMatchesFiniteDifferences) {
  KernelBuilder k(context, "chain");
  Tile in = k.pointer("x", DType::F32), out = k.pointer("dy", DType::F32);
  Tile offs = k.iota(64);
  Tile x = load(in + offs);
  Tile y = tanh(x / 3.0) * 3.0 + x * x / (x + 4.0) + max(x, 0.25) * exp2(x) -
           log2(abs(x) + 1.0) * M_LN2 + sqrt(x * x + 1.0) + where(x > 0.5, x * 2.0, -x) +
           exp(-x) * log2(x + 3.0);
  store(out + offs, derivative(y, x));
  KernelSignature signature = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);

  std::vector<HostBuffer> memory = {{"x", DType::F32, std::vector<double>(64)},
                                    {"dy", DType::F32, std::vector<double>(64, 0.0)}};
  for (int i = 0; i < 64; ++i) // [-2.5, 2.6], away from the kinks at 0, 0.25 and 0.5
    memory[0].data[i] = roundTo(DType::F32, -2.5 + 0.081 * i + 0.013);
  ASSERT_TRUE(interpret(*module, "chain", signature,
                        {PointerBinding{0}, PointerBinding{1}}, {1, 1, 1}, memory));
  for (int i = 0; i < 64; ++i) {
    double x0 = memory[0].data[i], h = 1e-6;
    double want = (chain(x0 + h) - chain(x0 - h)) / (2 * h);
    EXPECT_NEAR(memory[1].data[i], want, 1e-4 * std::max(1.0, std::fabs(want))) << "x = " << x0;
  }
}

TEST_F(DSLTest, DerivativeOfWhatDoesNotDependOnTheVariableIsZero) {
  KernelBuilder k(context, "constant");
  Tile out = k.pointer("dy", DType::F32);
  Tile x = k.full({16}, 2.0, DType::F32), other = k.full({16}, 3.0, DType::F32);
  store(out + k.iota(16), derivative(exp(other), x));
  KernelSignature signature = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<HostBuffer> memory = {{"dy", DType::F32, std::vector<double>(16, 7.0)}};
  ASSERT_TRUE(interpret(*module, "constant", signature, {PointerBinding{0}}, {1, 1, 1}, memory));
  for (double v : memory[0].data)
    EXPECT_EQ(v, 0.0);
}

TEST_F(DSLTest, DerivativeThroughADotIsReportedAtTheDot) {
  KernelBuilder k(context, "through_dot");
  Tile x = k.zeros({16, 16}, DType::F32), w = k.zeros({16, 16}, DType::F32);
  unsigned line = __LINE__ + 1;
  Tile y = dot(x, w, 0.0) + x;
  (void)derivative(y, x);
  EXPECT_FALSE(k.finish());
  expectErrorAt(line, "cannot differentiate 'tile.dot'");
}

} // namespace
