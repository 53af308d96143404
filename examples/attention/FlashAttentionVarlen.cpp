//===- FlashAttentionVarlen.cpp - packed batches of any lengths -----------===//
//
// A batch of sequences of different lengths packed end to end (no padding):
// Q, O [total_q, Hq, d], K, V [total_k, Hkv, d], with cumulative offsets
// cu_seqlens_q / cu_seqlens_k [B + 1] saying where each sequence starts.
// The kernel takes them as their [H, total, d] views (strides d, H·d, 1:
// PyTorch's `x.transpose(0, 1)`, no copy), so a block of one head is the
// dense kernel's [1, rows, d] block at another row.
// A program takes one block of one head of one sequence; its loops run over
// the tensors' rows from the sequence's first key (so the rings stream them
// as the dense kernel's), and the variant sees positions in the sequence.
//
//===----------------------------------------------------------------------===//

#include "FlashAttention.h"

#include "../ExampleSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tilec::attention {

using namespace tilec::dsl;

namespace {

/// Rows [first, end) of sequence `b` from cumulative offsets `cu` [B + 1],
/// clamped into [0, rows] whatever the offsets hold: a sequence past the
/// offsets' end is empty, so no program reads or writes outside its tensors.
std::pair<Tile, Tile> sequenceRows(KernelBuilder &k, const TensorArg &cu, Tile b, Tile rows) {
  Tile zero = k.constant(0, DType::I32);
  Tile known = b + 1 < cu.dim(0);
  Tile end = min(max(load(cu.base() + (b + 1), known, 0), zero), rows);
  Tile first = min(max(load(cu.base() + b, known, 0), zero), end);
  return {first, end};
}

} // namespace

void buildAttentionVarlen(KernelBuilder &k, const AttentionConfig &cfg,
                          const AttentionVariant &variant) {
  const int64_t d = cfg.headDim, bm = cfg.blockM, bn = cfg.blockN;
  const int64_t groups = cfg.rowGroups, gm = rowGroupRows(k, cfg);
  if (!gm)
    return;
  TensorArg q = k.tensor("q", cfg.dtype, 3), key = k.tensor("k", cfg.dtype, 3);
  TensorArg v = k.tensor("v", cfg.dtype, 3), o = k.tensor("o", cfg.dtype, 3);
  TensorArg lse = k.tensor("lse", DType::F32, 2);
  TensorArg cuQ = k.tensor("cu_seqlens_q", DType::I32, 1);
  TensorArg cuK = k.tensor("cu_seqlens_k", DType::I32, 1);
  k.scalar("max_seqlen_q", DType::I32); // sizes the grid only

  Tile head = k.programId(1), sequence = k.programId(2);
  Tile kvHead = cfg.group == 1 ? head : head / cfg.group;
  auto [qFirst, qEnd] = sequenceRows(k, cuQ, sequence, q.dim(1));
  auto [kFirst, kEnd] = sequenceRows(k, cuK, sequence, key.dim(1));
  Tile seqQ = qEnd - qFirst, seqK = kEnd - kFirst;
  // Longest blocks first, as the dense kernel (programs past the sequence's
  // end visit no key and write nothing).
  Tile row0 = (k.numPrograms(0) - 1 - k.programId(0)) * bm;

  // The K/V descriptors before Q's load, as the dense kernel makes them: the
  // tile-to-llvm lowering decides Q's shared-memory layout when it meets the
  // load, from the streams of descriptors it has seen.
  TensorDesc kBlocks = key.desc({1, bn, d}), vBlocks = v.desc({1, bn, d});
  TensorDesc qBlocks = q.desc({1, gm, d});
  std::vector<QueryRows> queries;
  for (int64_t g = 0; g < groups; ++g) {
    Tile rows = row0 + g * gm + k.iota(gm);
    queries.push_back({qBlocks.load({head, qFirst + row0 + g * gm, 0}), rows, head});
  }

  RangeContext rangeCtx{k, row0, bm, bn, seqQ, seqK};
  KeyRange range = variant.keyRange ? variant.keyRange(rangeCtx) : allKeys(rangeCtx);
  Tile live = row0 < seqQ;
  range.hi = where(live, range.hi, range.lo);
  KeyBlocks keys{[&](Tile j) { return kBlocks.load({kvHead, j, 0}); },
                 [&](Tile j) { return vBlocks.load({kvHead, j, 0}); }, kFirst};
  std::vector<KeyLoopState> state = attendKeys(k, cfg, variant, queries, keys, seqQ, seqK, range);

  // The sequence's own rows of O and LSE: rows past its end are dropped.
  TensorDesc oBlocks = o.slice(1, qFirst, seqQ).desc({1, gm, d});
  TensorDesc lseBlocks = lse.slice(1, qFirst, seqQ).desc({1, gm});
  for (int64_t g = 0; g < groups; ++g) {
    const KeyLoopState &s = state[g];
    oBlocks.store({head, row0 + g * gm, 0}, (s.acc / where(s.l == 0.0, 1.0, s.l).col()).to(cfg.dtype));
    lseBlocks.store({head, row0 + g * gm}, (s.m + log2(s.l)) * M_LN2);
  }
}

//===----------------------------------------------------------------------===//
// CPU runs
//===----------------------------------------------------------------------===//

/// Ragged lengths of `batch` sequences, the longest `longest`: full, then
/// (queries) empty, one, ... or (keys) half, empty, ..., so the batch holds
/// sequences with no query, queries with no key, and N_q != N_k both ways.
std::vector<int64_t> varlenLengths(int64_t batch, int64_t longest, bool keys) {
  std::vector<int64_t> lengths;
  for (int64_t b = 0; b < batch; ++b) {
    if (b == 0)
      lengths.push_back(longest);
    else if (b == 1)
      lengths.push_back(keys ? longest / 2 : 0);
    else if (b == 2)
      lengths.push_back(keys ? 0 : 1);
    else
      lengths.push_back(keys ? longest * (b + 2) / (b + 6) : longest * (b + 3) / (b + 5));
  }
  return lengths;
}

RunPlan planAttentionVarlen(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed) {
  const int64_t batch = sizes.getInt("batch"), heads = sizes.getInt("heads");
  const int64_t d = cfg.headDim, kvHeads = std::max<int64_t>(1, heads / cfg.group);
  const std::vector<int64_t> lensQ = varlenLengths(batch, sizes.getInt("seq_q"), false);
  const std::vector<int64_t> lensK = varlenLengths(batch, sizes.getInt("seq_k"), true);
  std::vector<double> cuQ{0}, cuK{0};
  for (int64_t b = 0; b < batch; ++b) {
    cuQ.push_back(cuQ.back() + lensQ[b]);
    cuK.push_back(cuK.back() + lensK[b]);
  }
  const int64_t totalQ = static_cast<int64_t>(cuQ.back()), totalK = static_cast<int64_t>(cuK.back());
  const double amplitude = sizes.getFloat("amplitude");
  std::mt19937_64 rng(seed);

  RunPlan plan;
  plan.memory = {examples::randomBuffer("q", cfg.dtype, totalQ * heads * d, rng, amplitude),
                 examples::randomBuffer("k", cfg.dtype, totalK * kvHeads * d, rng, amplitude),
                 examples::randomBuffer("v", cfg.dtype, totalK * kvHeads * d, rng),
                 examples::outputBuffer("o", cfg.dtype, totalQ * heads * d),
                 examples::outputBuffer("lse", DType::F32, heads * totalQ),
                 HostBuffer{"cu_seqlens_q", DType::I32, cuQ},
                 HostBuffer{"cu_seqlens_k", DType::I32, cuK}};
  // [total, h, d] memory as its [h, total, d] view.
  auto packed = [&](int buffer, int64_t total, int64_t h) {
    return TensorBinding{buffer, {h, total, d}, {d, h * d, 1}};
  };
  const int64_t longestQ = *std::max_element(lensQ.begin(), lensQ.end());
  plan.args = {packed(0, totalQ, heads), packed(1, totalK, kvHeads), packed(2, totalK, kvHeads),
               packed(3, totalQ, heads), TensorBinding{4, {heads, totalQ}, {totalQ, 1}},
               TensorBinding{5, {batch + 1}, {1}}, TensorBinding{6, {batch + 1}, {1}},
               static_cast<double>(longestQ)};
  plan.grid = {std::max<int64_t>(1, examples::ceilDiv(longestQ, cfg.blockM)), heads, batch + 1};

  // The reference, one sequence at a time in the dense layout.
  std::vector<double> oWant(totalQ * heads * d, 0.0), lseWant(heads * totalQ, 0.0);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t q0 = static_cast<int64_t>(cuQ[b]), k0 = static_cast<int64_t>(cuK[b]);
    const int64_t nq = lensQ[b], nk = lensK[b];
    auto gather = [&](const std::vector<double> &from, int64_t first, int64_t n, int64_t h) {
      std::vector<double> to(h * n * d); // [h, n, d] from [total, h, d]
      for (int64_t hh = 0; hh < h; ++hh)
        for (int64_t i = 0; i < n; ++i)
          for (int64_t t = 0; t < d; ++t)
            to[(hh * n + i) * d + t] = from[((first + i) * h + hh) * d + t];
      return to;
    };
    ReferenceAttention ref{heads, nq, nk, d, cfg.group, cfg.softmaxScale(), &variant};
    std::vector<double> out, lse;
    ref.forward(gather(plan.memory[0].data, q0, nq, heads), gather(plan.memory[1].data, k0, nk, kvHeads),
                gather(plan.memory[2].data, k0, nk, kvHeads), out, lse);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < nq; ++i) {
        lseWant[h * totalQ + q0 + i] = lse[h * nq + i];
        for (int64_t t = 0; t < d; ++t)
          oWant[((q0 + i) * heads + h) * d + t] = out[(h * nq + i) * d + t];
      }
  }
  plan.expected = {{3, oWant}, {4, lseWant}};
  plan.tolerance = 2e-2; // bf16 P and O
  return plan;
}

std::vector<ParamSpec> attentionVarlenSizes() {
  std::vector<ParamSpec> sizes = attentionSizes();
  for (ParamSpec &spec : sizes) {
    if (spec.name == "batch") {
      spec.defaultValue = "5";
      spec.help = "sequences, of ragged lengths (varlenLengths)";
    } else if (spec.name == "seq_q" || spec.name == "seq_k") {
      spec.help = std::string("the longest sequence's ") +
                  (spec.name == "seq_q" ? "queries" : "keys");
    }
  }
  return sizes;
}

} // namespace tilec::attention
