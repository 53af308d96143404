//===- 02-matmul.cpp - C = A·B with bf16 inputs and f32 accumulation ------===//
//
// Each program computes one block_m x block_n block of C, walking K in steps
// of block_k through tensor descriptors; the padding of ragged edges is zero,
// so no mask is needed. Grid: (ceil(M / block_m), ceil(N / block_n)).
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "tilec/DSL/DSL.h"
#include "tilec/Registry.h"

using namespace tilec;
using namespace tilec::dsl;

static void matmul(KernelBuilder &k, const Params &p) {
  int64_t bm = p.getInt("block_m"), bn = p.getInt("block_n"), bk = p.getInt("block_k");
  TensorArg a = k.tensor("a", DType::BF16, 2), b = k.tensor("b", DType::BF16, 2);
  TensorArg c = k.tensor("c", DType::F32, 2);
  TensorDesc aBlocks = a.desc({bm, bk}), bBlocks = b.desc({bk, bn}), cBlocks = c.desc({bm, bn});

  Tile row0 = k.programId(0) * bm, col0 = k.programId(1) * bn;
  std::vector<Tile> acc = k.forRange(0, a.dim(1), bk, {k.zeros({bm, bn}, DType::F32)},
                                     [&](Tile kk, std::vector<Tile> state) -> std::vector<Tile> {
                                       return {dot(aBlocks.load({row0, kk}),
                                                   bBlocks.load({kk, col0}), state[0])};
                                     });
  cBlocks.store({row0, col0}, acc[0]);
}

static RunPlan matmulPlan(const Params &p, const Params &size, uint64_t seed) {
  int64_t m = size.getInt("m"), n = size.getInt("n"), kd = size.getInt("k");
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("a", DType::BF16, m * kd, rng),
                 examples::randomBuffer("b", DType::BF16, kd * n, rng),
                 examples::outputBuffer("c", DType::F32, m * n)};
  plan.args = {TensorBinding{0, {m, kd}, {kd, 1}}, TensorBinding{1, {kd, n}, {n, 1}},
               TensorBinding{2, {m, n}, {n, 1}}};
  plan.grid = {examples::ceilDiv(m, p.getInt("block_m")),
               examples::ceilDiv(n, p.getInt("block_n")), 1};
  std::vector<double> want(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t t = 0; t < kd; ++t)
        want[i * n + j] += plan.memory[0].data[i * kd + t] * plan.memory[1].data[t * n + j];
  plan.expected = {{2, want}};
  plan.tolerance = 1e-5; // f32 accumulation of exact bf16 products
  return plan;
}

static RegisterKernel registration({
    .name = "matmul",
    .summary = "C = A·B, bf16 inputs, f32 accumulation and output",
    .params = {{.name = "block_m", .type = ParamSpec::Type::Int, .defaultValue = "64",
                .help = "rows of C per program", .min = 16, .max = 256, .powerOfTwo = true},
               {.name = "block_n", .type = ParamSpec::Type::Int, .defaultValue = "64",
                .help = "columns of C per program", .min = 8, .max = 256, .powerOfTwo = true},
               {.name = "block_k", .type = ParamSpec::Type::Int, .defaultValue = "32",
                .help = "K step", .min = 16, .max = 128, .powerOfTwo = true}},
    .build = matmul,
    .sizes = {{.name = "m", .type = ParamSpec::Type::Int, .defaultValue = "100", .help = "rows of A", .min = 1},
              {.name = "n", .type = ParamSpec::Type::Int, .defaultValue = "72", .help = "columns of B", .min = 1},
              {.name = "k", .type = ParamSpec::Type::Int, .defaultValue = "50", .help = "columns of A", .min = 1}},
    .plan = matmulPlan,
    .grid = [](const Params &p) {
      return GridRule{GridDim::shape("a", 0, p.getInt("block_m")),
                      GridDim::shape("b", 1, p.getInt("block_n")), GridDim::fixed(1)};
    },
});
