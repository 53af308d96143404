//===- Inputs.cpp - a variant's runtime tensors, in kernels and CPU runs --===//
//
// A variant may read tensors at run time (VariantInput): the kernels declare
// them after their own parameters and the rules read them through
// `at.input(name)(indices...)`: a gather load on tiles (masked: an index
// outside the tensor reads 0, so no launch reads out of bounds), the CPU
// run's values in the reference.
//
//===----------------------------------------------------------------------===//

#include "FlashAttention.h"
#include "Rules.h"

#include "../ExampleSupport.h"

#include <algorithm>

namespace tilec::attention {

using namespace tilec::dsl;

int64_t RunSizes::size(const InputDim &dim) const {
  switch (dim.kind) {
  case InputDim::Batch:
    return batch;
  case InputDim::Heads:
    return heads;
  case InputDim::SeqQ:
    return seqQ;
  case InputDim::SeqK:
    return seqK;
  case InputDim::Fixed:
    break;
  }
  return dim.size;
}

const KernelInputs::Declared *KernelInputs::find(const std::string &name) const {
  for (const Declared &d : tensors)
    if (d.name == name)
      return &d;
  return nullptr;
}

KernelInputs declareInputs(KernelBuilder &k, const AttentionVariant &variant, Tile bhQ) {
  KernelInputs inputs;
  for (const VariantInput &in : variant.inputs) {
    unsigned rank = static_cast<unsigned>(std::max<size_t>(1, in.shape.size()));
    // Innermost stride 1: a gather along that dimension (a block's key
    // positions, say) addresses consecutive elements at constant offsets
    // (with any stride: a 64-bit multiply per element).
    inputs.tensors.push_back(
        {in.name, in.dtype, k.tensor(in.name, in.dtype, rank, InnerStride::One)});
    if (inputs.headsPerBatch.valid())
      continue;
    for (size_t d = 0; d < in.shape.size(); ++d) {
      Tile size = inputs.tensors.back().tensor.dim(static_cast<unsigned>(d));
      // At least 1: a launch whose sizes disagree reads other batches' rows,
      // never outside an input (every read is masked).
      if (in.shape[d].kind == InputDim::Batch)
        inputs.headsPerBatch = max(bhQ / max(size, 1), 1);
      else if (in.shape[d].kind == InputDim::Heads)
        inputs.headsPerBatch = max(size, 1);
      else
        continue;
      break;
    }
  }
  return inputs;
}

std::vector<InputValues> inputValues(const AttentionVariant &variant, const RunSizes &sizes,
                                     std::mt19937_64 &rng) {
  std::vector<InputValues> values;
  for (const VariantInput &in : variant.inputs) {
    InputValues v{in.name, in.dtype, {}, {}};
    for (const InputDim &dim : in.shape)
      v.shape.push_back(sizes.size(dim));
    if (v.shape.empty())
      v.shape.push_back(1);
    int64_t count = 1;
    for (int64_t n : v.shape)
      count *= n;
    if (in.fill) {
      v.data = in.fill(InputFill{v.shape, sizes, rng});
      v.data.resize(count, 0.0);
    } else if (isFloat(in.dtype)) {
      std::uniform_real_distribution<double> dist(-1.0, 1.0);
      for (int64_t e = 0; e < count; ++e)
        v.data.push_back(dist(rng));
    } else {
      std::uniform_int_distribution<int> dist(0, 3);
      for (int64_t e = 0; e < count; ++e)
        v.data.push_back(dist(rng));
    }
    for (double &x : v.data)
      x = roundTo(in.dtype, x);
    values.push_back(std::move(v));
  }
  return values;
}

void bindInputs(RunPlan &plan, const std::vector<InputValues> &values) {
  for (const InputValues &v : values) {
    std::vector<int64_t> strides(v.shape.size(), 1);
    for (size_t d = v.shape.size(); d-- > 1;)
      strides[d - 1] = strides[d] * v.shape[d];
    plan.args.push_back(TensorBinding{static_cast<int>(plan.memory.size()), v.shape, strides});
    plan.memory.push_back(HostBuffer{v.name, v.dtype, v.data});
  }
}

Tile InputView<Tile>::read(const std::vector<Operand> &index) const {
  if (!input) {
    k->error(where, "the variant has no runtime input named '" + name +
                        "' (declare it in its inputs: VariantInput)");
    return k->constant(0, DType::F32);
  }
  const TensorArg &t = input->tensor;
  if (index.size() != t.rank()) {
    k->error(where, "input '" + name + "' has " + std::to_string(t.rank()) +
                        " dimensions, read with " + std::to_string(index.size()) + " indices");
    return k->constant(0, input->dtype);
  }
  Tile offset, inside;
  for (unsigned d = 0; d < t.rank(); ++d) {
    const Operand &ix = index[d];
    // An invalid tile and a floating-point number look alike here.
    if (!ix.tile.valid() && !ix.isInteger) {
      k->error(where, "index " + std::to_string(d) + " of input '" + name +
                          "' is not an integer tile or number (at.batch and at.qhead are known "
                          "only where an input has a batch or heads dimension: "
                          "InputDim::batch(), InputDim::heads())");
      return k->constant(0, input->dtype);
    }
    Tile i = ix.tile.valid() ? ix.tile : k->constant(ix.number, DType::I32);
    if (i.dtype() != DType::I32 && i.dtype() != DType::I64) {
      k->error(where, "index " + std::to_string(d) + " of input '" + name +
                          "' must be an integer tile, got " + std::string(toString(i.dtype())));
      return k->constant(0, input->dtype);
    }
    i = i.to(DType::I32);
    Tile in = inRange(i, t.dim(d));
    Tile term = i.to(DType::I64) * t.stride(d);
    offset = d ? offset + term : term;
    inside = d ? (inside && in) : in;
  }
  return load(t.base() + offset, inside, k->constant(0, input->dtype));
}

RefNum InputView<RefNum>::read(const std::vector<double> &index) const {
  if (!values || index.size() != values->shape.size())
    return RefNum(0.0); // the kernel's build reports these
  int64_t flat = 0;
  for (size_t d = 0; d < index.size(); ++d) {
    double i = std::trunc(index[d]);
    if (i < 0 || i >= static_cast<double>(values->shape[d]))
      return RefNum(0.0);
    flat = flat * values->shape[d] + static_cast<int64_t>(i);
  }
  double x = values->data[flat];
  return isFloat(values->dtype) ? RefNum(x) : RefNum(static_cast<int64_t>(x));
}

} // namespace tilec::attention
