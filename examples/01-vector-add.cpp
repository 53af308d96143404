//===- 01-vector-add.cpp - the smallest kernel: out = x + y ---------------===//
//
// One program per block of `block` elements, pointers and a mask for the
// ragged tail. Grid: ceil(n / block).
//
//===----------------------------------------------------------------------===//

#include "ExampleSupport.h"

#include "tilec/DSL/DSL.h"
#include "tilec/Registry.h"

using namespace tilec;
using namespace tilec::dsl;

static void vectorAdd(KernelBuilder &k, const Params &p) {
  int64_t block = p.getInt("block");
  Tile x = k.pointer("x", DType::F32), y = k.pointer("y", DType::F32);
  Tile out = k.pointer("out", DType::F32);
  Tile n = k.scalar("n", DType::I32);

  Tile offsets = k.programId(0) * block + k.iota(block);
  Tile inBounds = offsets < n;
  store(out + offsets, load(x + offsets, inBounds) + load(y + offsets, inBounds), inBounds);
}

static RunPlan vectorAddPlan(const Params &p, const Params &size, uint64_t seed) {
  int64_t n = size.getInt("n");
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("x", DType::F32, n, rng),
                 examples::randomBuffer("y", DType::F32, n, rng),
                 examples::outputBuffer("out", DType::F32, n)};
  plan.args = {PointerBinding{0}, PointerBinding{1}, PointerBinding{2}, double(n)};
  plan.grid = {examples::ceilDiv(n, p.getInt("block")), 1, 1};
  std::vector<double> sum(n);
  for (int64_t i = 0; i < n; ++i)
    sum[i] = plan.memory[0].data[i] + plan.memory[1].data[i];
  plan.expected = {{2, sum}};
  plan.tolerance = 1e-7; // one f32 rounding
  return plan;
}

static RegisterKernel registration({
    .name = "vector_add",
    .summary = "out = x + y over f32 vectors, masked tail",
    .params = {{.name = "block", .type = ParamSpec::Type::Int, .defaultValue = "1024",
                .help = "elements per program", .min = 1, .max = 65536, .powerOfTwo = true}},
    .build = vectorAdd,
    .sizes = {{.name = "n", .type = ParamSpec::Type::Int, .defaultValue = "3000",
               .help = "vector length", .min = 1}},
    .plan = vectorAddPlan,
    .grid = [](const Params &p) {
      return GridRule{GridDim::scalar("n", p.getInt("block")), GridDim::fixed(1), GridDim::fixed(1)};
    },
});
