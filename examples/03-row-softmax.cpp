//===- 03-row-softmax.cpp - softmax of each row, any row length -----------===//
//
// Two passes over a row's column blocks: the first keeps the running max and
// sum with the online softmax (no second read to find the max first), the
// second writes exp(x - max) / sum. Columns past the row end are masked to
// -inf. Grid: ceil(rows / block_rows).
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "tilec/DSL/DSL.h"
#include "tilec/Registry.h"

#include <cmath>
#include <limits>

using namespace tilec;
using namespace tilec::dsl;

static void rowSoftmax(KernelBuilder &k, const Params &p) {
  int64_t br = p.getInt("block_rows"), bc = p.getInt("block_cols");
  TensorArg x = k.tensor("x", DType::F32, 2), y = k.tensor("y", DType::F32, 2);
  TensorDesc in = x.desc({br, bc}), out = y.desc({br, bc});
  Tile row0 = k.programId(0) * br, cols = x.dim(1);
  const double inf = std::numeric_limits<double>::infinity();

  auto block = [&](Tile c0) { return where((c0 + k.iota(bc) < cols).row(), in.load({row0, c0}), -inf); };
  std::vector<Tile> stats = k.forRange(
      0, cols, bc, {k.full({br}, -inf, DType::F32), k.zeros({br}, DType::F32)},
      [&](Tile c0, std::vector<Tile> s) -> std::vector<Tile> {
        auto [mNew, prob, alpha] = onlineSoftmax(block(c0), s[0], 1.0);
        return {mNew, s[1] * alpha + rowSum(prob)};
      });
  Tile m = stats[0], l = stats[1];
  k.forRange(0, cols, bc, {}, [&](Tile c0, std::vector<Tile>) -> std::vector<Tile> {
    out.store({row0, c0}, exp2(block(c0) * M_LOG2E - m.col()) / l.col());
    return {};
  });
}

static RunPlan rowSoftmaxPlan(const Params &p, const Params &size, uint64_t seed) {
  int64_t rows = size.getInt("rows"), cols = size.getInt("cols");
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("x", DType::F32, rows * cols, rng, size.getFloat("amplitude")),
                 examples::outputBuffer("y", DType::F32, rows * cols)};
  plan.args = {TensorBinding{0, {rows, cols}, {cols, 1}}, TensorBinding{1, {rows, cols}, {cols, 1}}};
  plan.grid = {examples::ceilDiv(rows, p.getInt("block_rows")), 1, 1};
  std::vector<double> want(rows * cols);
  for (int64_t r = 0; r < rows; ++r) {
    const double *row = &plan.memory[0].data[r * cols];
    double mx = *std::max_element(row, row + cols), sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += std::exp(row[c] - mx);
    for (int64_t c = 0; c < cols; ++c) want[r * cols + c] = std::exp(row[c] - mx) / sum;
  }
  plan.expected = {{1, want}};
  plan.tolerance = 1e-5;
  return plan;
}

static RegisterKernel registration({
    .name = "row_softmax",
    .summary = "softmax of every row of an f32 matrix (online max/sum, then normalize)",
    .params = {{.name = "block_rows", .type = ParamSpec::Type::Int, .defaultValue = "16",
                .help = "rows per program", .min = 1, .max = 256, .powerOfTwo = true},
               {.name = "block_cols", .type = ParamSpec::Type::Int, .defaultValue = "64",
                .help = "columns per step", .min = 1, .max = 1024, .powerOfTwo = true}},
    .build = rowSoftmax,
    .sizes = {{.name = "rows", .type = ParamSpec::Type::Int, .defaultValue = "37", .help = "rows", .min = 1},
              {.name = "cols", .type = ParamSpec::Type::Int, .defaultValue = "200", .help = "columns", .min = 1},
              {.name = "amplitude", .type = ParamSpec::Type::Float, .defaultValue = "4", .help = "inputs in [-a, a]"}},
    .plan = rowSoftmaxPlan,
    .grid = [](const Params &p) {
      return GridRule{GridDim::shape("x", 0, p.getInt("block_rows")), GridDim::fixed(1),
                      GridDim::fixed(1)};
    },
});
