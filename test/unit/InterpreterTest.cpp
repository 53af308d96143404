//===- InterpreterTest.cpp - the reference semantics, piece by piece ------===//

#include "tilec/Interpreter/Interpreter.h"
#include "tilec/DSL/DSL.h"
#include "tilec/InitAll.h"
#include "tilec/Passes.h"
#include "tilec/Support/Numeric.h"
#include "tilec/Target/PTX.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::dsl;

namespace {

TEST(RoundTo, BF16RoundsToNearestEven) {
  EXPECT_EQ(roundTo(DType::BF16, 1.0), 1.0);
  // bf16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7.
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(roundTo(DType::BF16, 1.0 + 3 * std::ldexp(1.0, -8)), 1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundTo(DType::BF16, 3.14159), 3.140625);
  EXPECT_TRUE(std::isinf(roundTo(DType::BF16, 1e39)));
  EXPECT_TRUE(std::isnan(roundTo(DType::BF16, std::nan(""))));
}

TEST(RoundTo, F16AndIntegers) {
  EXPECT_EQ(roundTo(DType::F16, 65504.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, 70000.0)));
  EXPECT_EQ(roundTo(DType::F16, 1.0 + std::ldexp(1.0, -11)), 1.0);
  EXPECT_EQ(roundTo(DType::I32, 2147483648.0), -2147483648.0);
  EXPECT_EQ(roundTo(DType::I1, 5.0), 1.0);
  EXPECT_EQ(roundTo(DType::F32, 0.1), static_cast<double>(0.1f));
}

class InterpreterTest : public ::testing::Test {
protected:
  InterpreterTest()
      : handler(&context, [this](mlir::Diagnostic &diag) {
          messages.push_back(diag.str());
          return mlir::success();
        }) {
    mlir::DialectRegistry registry;
    registerTilecDialects(registry);
    context.appendDialectRegistry(registry);
  }
  mlir::MLIRContext context;
  std::vector<std::string> messages;
  mlir::ScopedDiagnosticHandler handler;
};

TEST_F(InterpreterTest, UnmaskedOutOfBoundsLoadIsAnErrorNotACrash) {
  KernelBuilder k(context, "oob");
  Tile x = k.pointer("x", DType::F32), y = k.pointer("y", DType::F32);
  Tile offsets = k.iota(16);
  store(y + offsets, load(x + offsets)); // no mask: reads past a 10-element buffer
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<HostBuffer> memory = {{"x", DType::F32, std::vector<double>(10, 1.0)},
                                    {"y", DType::F32, std::vector<double>(16, 0.0)}};
  EXPECT_FALSE(interpret(*module, "oob", sig, {PointerBinding{0}, PointerBinding{1}},
                         {1, 1, 1}, memory));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.back().find("load out of bounds: element 10 of buffer 'x'"),
            std::string::npos)
      << messages.back();
}

TEST_F(InterpreterTest, BlockLoadsPadAndBlockStoresDropOutsideTheShape) {
  KernelBuilder k(context, "copy");
  TensorArg x = k.tensor("x", DType::F32, 2), y = k.tensor("y", DType::F32, 2);
  TensorDesc in = x.desc({4, 4}), out = y.desc({4, 4});
  // Block at (-1, 2): row -1 and columns 3.. are outside a 3x4 tensor.
  out.store({0, 0}, in.load({-1, 2}, Padding::NaN));
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<double> data(12);
  for (int i = 0; i < 12; ++i) data[i] = i + 1;
  std::vector<HostBuffer> memory = {{"x", DType::F32, data},
                                    {"y", DType::F32, std::vector<double>(12, -1.0)}};
  ASSERT_TRUE(interpret(*module, "copy", sig,
                        {TensorBinding{0, {3, 4}, {4, 1}}, TensorBinding{1, {3, 4}, {4, 1}}},
                        {1, 1, 1}, memory));
  const std::vector<double> &result = memory[1].data;
  EXPECT_TRUE(std::isnan(result[0])) << "row -1 reads padding";
  EXPECT_EQ(result[4], 3.0) << "x[0][2]";
  EXPECT_EQ(result[5], 4.0) << "x[0][3]";
  EXPECT_TRUE(std::isnan(result[6])) << "column 4 is outside";
  EXPECT_EQ(result[8], 7.0) << "x[1][2]";
}

// The lazy rescale: with a threshold of 8 (log2 units) a row keeps its old
// max (alpha exactly 1, p up to 2^8) unless the block's exceeds it by more
// than 8; scaleRows multiplies each row by its factor.
TEST_F(InterpreterTest, OnlineSoftmaxKeepsTheMaxWithinItsRescaleThreshold) {
  KernelBuilder k(context, "lazy_step");
  TensorArg s = k.tensor("s", DType::F32, 2), out = k.tensor("out", DType::F32, 2);
  TensorDesc sBlocks = s.desc({2, 4}), outBlocks = out.desc({2, 4});
  SoftmaxParts step = onlineSoftmax({sBlocks.load({0, 0})}, k.zeros({2}, DType::F32), M_LN2, 8.0);
  // Column 0: mNew, column 1: alpha, columns 2-3: p[:, 2:4] scaled by alpha.
  Tile scaled = scaleRows(step.p[0], step.alpha);
  Tile packed = where(k.iota(4).row() == 0, step.mNew.col(),
                      where(k.iota(4).row() == 1, step.alpha.col(), scaled));
  outBlocks.store({0, 0}, packed);
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  // scale ln 2: the scores are in log2 units. Row 0's block max 7 stays
  // within 8 of the running max 0; row 1's 9 does not.
  std::vector<HostBuffer> memory = {{"s", DType::F32, {0, 0, 7, 1, 0, 0, 9, 1}},
                                    {"out", DType::F32, std::vector<double>(8, -1)}};
  ASSERT_TRUE(interpret(*module, "lazy_step", sig,
                        {TensorBinding{0, {2, 4}, {4, 1}}, TensorBinding{1, {2, 4}, {4, 1}}},
                        {1, 1, 1}, memory));
  const std::vector<double> &o = memory[1].data;
  EXPECT_NEAR(o[0], 0.0, 1e-6) << "row 0 keeps its max";
  EXPECT_EQ(o[1], 1.0) << "alpha exactly 1";
  EXPECT_NEAR(o[2], 128.0, 1e-3) << "p = 2^(7 - 0), above 1";
  EXPECT_NEAR(o[3], 2.0, 1e-5);
  EXPECT_NEAR(o[4], 9.0, 1e-5) << "row 1 moves its max";
  EXPECT_NEAR(o[5], std::exp2(-9.0), 1e-9);
  EXPECT_NEAR(o[6], std::exp2(-9.0), 1e-9) << "p = 1 scaled by alpha";
  EXPECT_NEAR(o[7], std::exp2(-17.0), 1e-10);
}

TEST_F(InterpreterTest, OnlineSoftmaxHandlesFullyMaskedRows) {
  KernelBuilder k(context, "softmax_step");
  TensorArg s = k.tensor("s", DType::F32, 2), out = k.tensor("out", DType::F32, 2);
  TensorDesc sBlocks = s.desc({2, 4}), outBlocks = out.desc({2, 4});
  const double inf = std::numeric_limits<double>::infinity();
  SoftmaxStep step = onlineSoftmax(sBlocks.load({0, 0}), k.full({2}, -inf, DType::F32), 1.0);
  // Column 0: mNew, column 1: alpha, columns 2-3: p[:, 2:4].
  Tile packed = where(k.iota(4).row() == 0, step.mNew.col(),
                      where(k.iota(4).row() == 1, step.alpha.col(), step.p));
  outBlocks.store({0, 0}, packed);
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<HostBuffer> memory = {
      {"s", DType::F32, {1, 2, -inf, 0, -inf, -inf, -inf, -inf}},
      {"out", DType::F32, std::vector<double>(8, 0)}};
  ASSERT_TRUE(interpret(*module, "softmax_step", sig,
                        {TensorBinding{0, {2, 4}, {4, 1}}, TensorBinding{1, {2, 4}, {4, 1}}},
                        {1, 1, 1}, memory));
  const std::vector<double> &o = memory[1].data;
  EXPECT_NEAR(o[0], 2 * M_LOG2E, 1e-6) << "m_new in log2 units";
  EXPECT_EQ(o[1], 0.0) << "alpha = exp2(-inf - m_new)";
  EXPECT_EQ(o[2], 0.0) << "p of a masked score";
  EXPECT_NEAR(o[3], std::exp(0.0 - 2.0), 1e-6) << "p[0][3] = e^(s - max)";
  EXPECT_TRUE(std::isinf(o[4]) && o[4] < 0) << "fully masked row keeps m = -inf";
  EXPECT_EQ(o[5], 1.0) << "alpha = 1, never NaN";
  EXPECT_EQ(o[6], 0.0) << "p = 0, never NaN";
}

TEST_F(InterpreterTest, OnlineSoftmaxInPartsIsTheStepOverTheWholeBlock) {
  // A 4x8 block of scores, and the same block as parts of 4 + 2 + 2 keys:
  // the same maximum, alpha and probabilities (bit for bit: max and exp2
  // see the same numbers).
  KernelBuilder k(context, "softmax_parts");
  TensorArg s = k.tensor("s", DType::F32, 2), pWhole = k.tensor("p_whole", DType::F32, 2),
            pParts = k.tensor("p_parts", DType::F32, 2);
  TensorArg stats = k.tensor("stats", DType::F32, 2);
  Tile m = k.full({4}, 0.75, DType::F32);
  SoftmaxStep whole = onlineSoftmax(s.desc({4, 8}).load({0, 0}), m, 0.3);
  SoftmaxParts parts = onlineSoftmax(
      {s.desc({4, 4}).load({0, 0}), s.desc({4, 2}).load({0, 4}), s.desc({4, 2}).load({0, 6})}, m,
      0.3);
  ASSERT_EQ(parts.p.size(), 3u);
  pWhole.desc({4, 8}).store({0, 0}, whole.p);
  pParts.desc({4, 4}).store({0, 0}, parts.p[0]);
  pParts.desc({4, 2}).store({0, 4}, parts.p[1]);
  pParts.desc({4, 2}).store({0, 6}, parts.p[2]);
  TensorDesc row = stats.desc({1, 4});
  row.store({0, 0}, whole.mNew.row());
  row.store({1, 0}, parts.mNew.row());
  row.store({2, 0}, whole.alpha.row());
  row.store({3, 0}, parts.alpha.row());
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module) << (messages.empty() ? "" : messages.back());
  const double inf = std::numeric_limits<double>::infinity();
  // Row 3 fully masked; row 2's maximum in the last part only.
  std::vector<double> scores = {0.5,  -1,   2,    0.25, 3,    -2,   1,    0,    //
                                -4,   1.5,  0.5,  -inf, 0,    2.5,  -inf, 1,    //
                                -1,   -1,   -1,   -1,   -1,   -1,   -inf, 6,    //
                                -inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf};
  std::vector<HostBuffer> memory = {{"s", DType::F32, scores},
                                    {"p_whole", DType::F32, std::vector<double>(32, -7)},
                                    {"p_parts", DType::F32, std::vector<double>(32, -9)},
                                    {"stats", DType::F32, std::vector<double>(16, -5)}};
  ASSERT_TRUE(interpret(*module, "softmax_parts", sig,
                        {TensorBinding{0, {4, 8}, {8, 1}}, TensorBinding{1, {4, 8}, {8, 1}},
                         TensorBinding{2, {4, 8}, {8, 1}}, TensorBinding{3, {4, 4}, {4, 1}}},
                        {1, 1, 1}, memory));
  EXPECT_EQ(memory[1].data, memory[2].data) << "p";
  const std::vector<double> &st = memory[3].data;
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(st[r], st[4 + r]) << "m_new of row " << r;
    EXPECT_EQ(st[8 + r], st[12 + r]) << "alpha of row " << r;
  }
  EXPECT_NEAR(st[2], 6 * 0.3 * M_LOG2E, 1e-5) << "row 2's maximum, from the last part";
  EXPECT_NEAR(st[3], 0.75, 1e-6) << "row 3 (all masked) keeps m";
  EXPECT_GT(memory[2].data[2 * 8 + 7], 0.99) << "p at row 2's maximum is 1";
}

TEST_F(InterpreterTest, WrongBindingIsReported) {
  KernelBuilder k(context, "needs_tensor");
  TensorArg x = k.tensor("x", DType::F32, 1);
  x.desc({4}).store({0}, k.zeros({4}, DType::F32));
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<HostBuffer> memory = {{"x", DType::BF16, std::vector<double>(4)}};
  EXPECT_FALSE(interpret(*module, "needs_tensor", sig, {TensorBinding{0, {4}, {1}}}, {1, 1, 1},
                         memory));
  ASSERT_FALSE(messages.empty());
  EXPECT_NE(messages.back().find("parameter 'x' needs a f32 buffer"), std::string::npos)
      << messages.back();
}

} // namespace

namespace {

TEST(Encoding, RoundTripsEveryTypeBitExactly) {
  const std::vector<double> values = {0.0, -0.0, 1.0, -2.5, 3.14159, 65504.0, 1e-7, 6e-8,
                                      -1e30, std::numeric_limits<double>::infinity()};
  for (DType t : {DType::F32, DType::BF16, DType::F16}) {
    std::vector<double> rounded;
    for (double v : values)
      rounded.push_back(roundTo(t, v));
    std::vector<double> back = decode(t, encode(t, rounded));
    ASSERT_EQ(back.size(), rounded.size());
    for (size_t i = 0; i < rounded.size(); ++i)
      EXPECT_EQ(back[i], rounded[i]) << toString(t) << " value " << values[i];
  }
  // f16: the largest finite value, the smallest subnormal, overflow to infinity.
  EXPECT_EQ(roundTo(DType::F16, 65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(roundTo(DType::F16, 65520.0)));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0, -24)), std::ldexp(1.0, -24));
  EXPECT_EQ(roundTo(DType::F16, std::ldexp(1.0, -26)), 0.0);
  // The bytes are the IEEE / bfloat16 encodings.
  EXPECT_EQ(encode(DType::F16, {1.0}), (std::vector<uint8_t>{0x00, 0x3C}));
  EXPECT_EQ(encode(DType::BF16, {1.0}), (std::vector<uint8_t>{0x80, 0x3F}));
  EXPECT_EQ(encode(DType::F16, {-2.0}), (std::vector<uint8_t>{0x00, 0xC0}));
}

} // namespace

namespace {

TEST_F(InterpreterTest, ConditionalsFollowTheProgram) {
  // Program 0 writes 10, the others 20 + their id; and only program 1 also
  // doubles its value (ifThen).
  KernelBuilder k(context, "branches");
  Tile out = k.pointer("out", DType::F32);
  Tile pid = k.programId(0);
  std::vector<Tile> chosen = k.ifElse(
      pid == 0, [&] { return std::vector<Tile>{k.constant(10, DType::F32)}; },
      [&] { return std::vector<Tile>{pid.to(DType::F32) + 20.0}; });
  Tile slot = out + pid + k.iota(1) * 0;
  store(slot, k.splat(chosen[0], {1}));
  k.ifThen(pid == 1, [&] { store(slot, k.splat(chosen[0] * 2.0, {1})); });
  KernelSignature sig = k.signature();
  auto module = k.finish();
  ASSERT_TRUE(module);
  std::vector<HostBuffer> memory = {{"out", DType::F32, std::vector<double>(3, 0.0)}};
  ASSERT_TRUE(interpret(*module, "branches", sig, {PointerBinding{0}}, {3, 1, 1}, memory));
  EXPECT_EQ(memory[0].data, (std::vector<double>{10, 42, 22}));

  // The same kernel goes through the GPU pipeline (scf.if with results and
  // without) and comes out as PTX.
  ASSERT_TRUE(mlir::succeeded(lowerToLLVMDialect(*module, GpuTarget{})));
  mlir::FailureOr<std::string> ptx = translateToPTX(*module, GpuTarget{});
  ASSERT_TRUE(mlir::succeeded(ptx));
  EXPECT_NE(ptx->find(".entry branches("), std::string::npos);
}

} // namespace

namespace {

/// A kernel over a gx x gy x gz grid whose programs along y come longest
/// first: each program writes, at its (x, y, z), how many visits came
/// before it (a counter after the grid's cells), so that a run tells which
/// logical program came when — and that each came once.
mlir::OwningOpRef<mlir::ModuleOp> visitOrderKernel(mlir::MLIRContext &context,
                                                   KernelSignature &signature) {
  KernelBuilder k(context, "visits");
  Tile out = k.pointer("out", DType::F32);
  k.longestFirst(1);
  Tile cell =
      k.programId(0) + k.numPrograms(0) * (k.programId(1) + k.numPrograms(1) * k.programId(2));
  Tile cells = k.numPrograms(0) * k.numPrograms(1) * k.numPrograms(2);
  Tile counter = out + cells + k.iota(1) * 0;
  Tile seen = load(counter);
  store(out + cell + k.iota(1) * 0, seen);
  store(counter, seen + 1.0);
  signature = k.signature();
  return k.finish();
}

/// The order in which the interpreter's kInterpretedPersistentPrograms
/// programs visit `grid` once tile-persistent-grid has run with
/// `roundsPerSection`: order[cell] (x fastest), or empty on failure.
std::vector<double> persistentVisitOrder(mlir::MLIRContext &context, unsigned roundsPerSection,
                                         std::array<int64_t, 3> grid) {
  KernelSignature signature;
  mlir::OwningOpRef<mlir::ModuleOp> module = visitOrderKernel(context, signature);
  if (!module)
    return {};
  mlir::PassManager pm(&context);
  pm.addPass(createTilePersistentGrid(TilePersistentGridOptions{roundsPerSection}));
  if (mlir::failed(pm.run(*module)))
    return {};
  const int64_t cells = grid[0] * grid[1] * grid[2];
  // -1: never visited.
  std::vector<HostBuffer> memory = {{"out", DType::F32, std::vector<double>(cells, -1.0)}};
  memory[0].data.push_back(0.0);
  if (!interpret(*module, "visits", signature, {PointerBinding{0}}, grid, memory))
    return {};
  memory[0].data.pop_back();
  return memory[0].data;
}

// Every logical program runs exactly once, whatever the sections: the
// grids below have one section, several, and a narrower last one (7 heads
// in sections of 2), with 3 programs (kInterpretedPersistentPrograms).
TEST_F(InterpreterTest, PersistentGridVisitsEveryProgramOnce) {
  static_assert(kInterpretedPersistentPrograms == 3, "the cases below assume 3 programs");
  for (unsigned rounds : {0u, 1u, 2u, 3u})
    for (std::array<int64_t, 3> grid :
         {std::array<int64_t, 3>{3, 5, 2}, {7, 3, 1}, {1, 9, 1}, {5, 1, 3}, {2, 4, 3}}) {
      std::vector<double> order = persistentVisitOrder(context, rounds, grid);
      ASSERT_EQ(order.size(), size_t(grid[0] * grid[1] * grid[2]))
          << "rounds-per-section " << rounds << ": the kernel did not run";
      std::vector<double> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      for (size_t i = 0; i < sorted.size(); ++i)
        ASSERT_EQ(sorted[i], double(i))
            << "rounds-per-section " << rounds << ", grid " << grid[0] << "x" << grid[1] << "x"
            << grid[2] << ": a program missed or run twice";
    }
}

// With two rounds a section, 3 programs and 3 query blocks (y) a head (x),
// a section is two heads (6 tiles): program 0 (run first by the
// interpreter) takes t = 0, 3, 6, 9, the second round of each section
// mirrored (section-local 3 -> 5): heads 0..3 in turn, the longest query
// block (y = 0), then the shortest (y = 2), alternately. With all heads in
// one section (rounds-per-section=0) the same t are u = 0, 5, 6, 11 over
// the whole grid, (x, y) = u mod 4, u / 4: (0, 0), (1, 1), (2, 1), (3, 2).
TEST_F(InterpreterTest, PersistentGridTakesHeadsSectionBySection) {
  // The (x, y) program 0 visits first, second, third and fourth.
  auto expectFirstVisits = [&](unsigned rounds, std::vector<std::pair<int64_t, int64_t>> cells) {
    std::vector<double> order = persistentVisitOrder(context, rounds, {4, 3, 1});
    ASSERT_EQ(order.size(), 12u) << "rounds-per-section " << rounds;
    for (size_t i = 0; i < cells.size(); ++i)
      EXPECT_EQ(order[cells[i].first + 4 * cells[i].second], double(i))
          << "rounds-per-section " << rounds << ": visit " << i;
  };
  expectFirstVisits(2, {{0, 0}, {1, 2}, {2, 0}, {3, 2}});
  expectFirstVisits(0, {{0, 0}, {1, 1}, {2, 1}, {3, 2}});
}

} // namespace
