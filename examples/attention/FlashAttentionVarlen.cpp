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

static constexpr double kInf = std::numeric_limits<double>::infinity();

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

/// The part of `t` along dimension 1 from row `first`, `size` rows long,
/// kept inside the tensor whatever the two hold.
TensorArg rowsInside(KernelBuilder &k, const TensorArg &t, Tile first, Tile size) {
  Tile zero = k.constant(0, DType::I32);
  Tile start = min(max(first, zero), t.dim(1));
  return t.slice(1, start, min(max(size, zero), t.dim(1) - start));
}

/// Row of lse_log2 and delta that holds sequence b's query 0: 4·(first / 4
/// + b), 16-byte aligned and past the previous sequence's rows.
Tile statFirst(Tile qFirst, Tile b) { return (qFirst / 4 + b) * 4; }

/// Sequence b of a packed batch, as the backward's building blocks see it.
BackwardSequence packedSequence(KernelBuilder &k, const BackwardInputs &in, const TensorArg &cuQ,
                                const TensorArg &cuK, Tile b) {
  auto [qFirst, qEnd] = sequenceRows(k, cuQ, b, in.q.dim(1));
  auto [kFirst, kEnd] = sequenceRows(k, cuK, b, in.key.dim(1));
  return {qFirst, kFirst, statFirst(qFirst, b), qEnd - qFirst, kEnd - kFirst, /*packed=*/true};
}

} // namespace

void buildAttentionVarlen(KernelBuilder &k, const AttentionConfig &cfg,
                          const AttentionVariant &variant) {
  const int64_t bm = cfg.blockM, bn = cfg.blockN;
  const int64_t groups = cfg.rowGroups, gm = rowGroupRows(k, cfg);
  if (!gm)
    return;
  TensorArg q = headDimTensor(k, "q", cfg.dtype, 3, cfg.headDim),
            key = headDimTensor(k, "k", cfg.dtype, 3, cfg.headDim);
  TensorArg v = headDimTensor(k, "v", cfg.dtype, 3, cfg.valueDim()),
            o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim());
  TensorArg lse = k.tensor("lse", DType::F32, 2);
  TensorArg cuQ = k.tensor("cu_seqlens_q", DType::I32, 1);
  TensorArg cuK = k.tensor("cu_seqlens_k", DType::I32, 1);
  if (cfg.splitColumns) // its 32- and 16-column tiles as wgmma B operands too
    k.narrowWgmmaOperands();
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
  KeyPartBlocks kBlocks(key, cfg.keyParts(), cfg.qkParts()),
      vBlocks(v, cfg.keyParts(), cfg.vParts());
  ColumnBlocks qBlocks(q, {1, gm}, cfg.qkParts());
  std::vector<QueryRows> queries;
  for (int64_t g = 0; g < groups; ++g) {
    Tile rows = row0 + g * gm + k.iota(gm);
    queries.push_back({qBlocks.load({head, qFirst + row0 + g * gm}), rows, head});
  }

  RangeContext rangeCtx{k, row0, bm, bn, seqQ, seqK};
  KeyRange range = keyRangeOf(variant, rangeCtx);
  Tile live = row0 < seqQ;
  range.hi = where(live, range.hi, range.lo);
  KeyBlocks keys{[&](Tile j, size_t part) { return kBlocks.load(kvHead, j, part); },
                 [&](Tile j, size_t part) { return vBlocks.load(kvHead, j, part); }, kFirst};
  std::vector<KeyLoopState> state = attendKeys(k, cfg, variant, queries, keys, seqQ, seqK, range);

  // The sequence's own rows of O and LSE: rows past its end are dropped.
  ColumnBlocks oBlocks(o.slice(1, qFirst, seqQ), {1, gm}, cfg.vParts());
  TensorDesc lseBlocks = lse.slice(1, qFirst, seqQ).desc({1, gm});
  for (int64_t g = 0; g < groups; ++g) {
    const KeyLoopState &s = state[g];
    oBlocks.store({head, row0 + g * gm}, normalizedParts(s, cfg.dtype));
    lseBlocks.store({head, row0 + g * gm}, (s.m + log2(s.l)) * M_LN2);
  }
}

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//

int64_t varlenStatRows(int64_t totalQ, int64_t batch) { return 4 * (totalQ / 4 + batch); }

void buildAttentionVarlenBackwardPrep(KernelBuilder &k, const AttentionConfig &cfg) {
  const int64_t d = cfg.vColumns(), bm = cfg.blockM;
  TensorArg o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim()),
            dO = headDimTensor(k, "do", cfg.dtype, 3, cfg.valueDim());
  TensorArg lse = k.tensor("lse", DType::F32, 2), delta = k.tensor("delta", DType::F32, 2);
  TensorArg lseLog2 = k.tensor("lse_log2", DType::F32, 2);
  TensorArg cuQ = k.tensor("cu_seqlens_q", DType::I32, 1);
  k.scalar("max_seqlen_q", DType::I32); // sizes the grid only

  Tile head = k.programId(1), b = k.programId(2), row0 = k.programId(0) * bm;
  auto [first, end] = sequenceRows(k, cuQ, b, o.dim(1));
  Tile seqQ = end - first, stat0 = statFirst(first, b);
  // Only the sequence's rows: the others read as padding and are not written.
  Tile oBlock = rowsInside(k, o, first, seqQ).desc({1, bm, d}).load({head, row0, 0});
  Tile dOBlock = rowsInside(k, dO, first, seqQ).desc({1, bm, d}).load({head, row0, 0});
  Tile lseBlock = rowsInside(k, lse, first, seqQ).desc({1, bm}).load({head, row0});
  rowsInside(k, delta, stat0, seqQ)
      .desc({1, bm})
      .store({head, row0}, rowSum(oBlock.to(DType::F32) * dOBlock.to(DType::F32)));
  rowsInside(k, lseLog2, stat0, seqQ).desc({1, bm}).store({head, row0}, log2Lse(lseBlock));
}

void buildAttentionVarlenBackwardKV(KernelBuilder &k, const AttentionConfig &cfg,
                                    const AttentionVariant &variant) {
  const int64_t bn = cfg.blockN;
  if (cfg.splitColumns)
    k.narrowWgmmaOperands();
  BackwardInputs in = backwardInputs(k, cfg);
  TensorArg dk = headDimTensor(k, "dk", cfg.dtype, 3, cfg.headDim),
            dv = headDimTensor(k, "dv", cfg.dtype, 3, cfg.valueDim());
  TensorArg cuQ = k.tensor("cu_seqlens_q", DType::I32, 1);
  TensorArg cuK = k.tensor("cu_seqlens_k", DType::I32, 1);
  k.scalar("max_seqlen_k", DType::I32); // sizes the grid only

  Tile kvHead = k.programId(1), col0 = k.programId(0) * cfg.blockN;
  BackwardSequence seq = packedSequence(k, in, cuQ, cuK, k.programId(2));
  KeyBlockGradients grads = backwardKeyBlock(k, cfg, variant, in, seq, kvHead, col0);
  // The sequence's own rows of dK and dV: rows past its end are dropped.
  ColumnBlocks(rowsInside(k, dk, seq.kFirst, seq.seqK), {1, bn}, cfg.qkParts())
      .store({kvHead, col0}, convertedParts(grads.dK, cfg.dtype));
  ColumnBlocks(rowsInside(k, dv, seq.kFirst, seq.seqK), {1, bn}, cfg.vParts())
      .store({kvHead, col0}, convertedParts(grads.dV, cfg.dtype));
}

void buildAttentionVarlenBackwardQ(KernelBuilder &k, const AttentionConfig &cfg,
                                   const AttentionVariant &variant) {
  const int64_t bm = cfg.blockM;
  if (cfg.splitColumns)
    k.narrowWgmmaOperands();
  BackwardInputs in = backwardInputs(k, cfg);
  TensorArg dq = headDimTensor(k, "dq", cfg.dtype, 3, cfg.headDim);
  TensorArg cuQ = k.tensor("cu_seqlens_q", DType::I32, 1);
  TensorArg cuK = k.tensor("cu_seqlens_k", DType::I32, 1);
  k.scalar("max_seqlen_q", DType::I32); // sizes the grid only

  // Longest blocks first, as the dense kernel.
  Tile head = k.programId(1), row0 = (k.numPrograms(0) - 1 - k.programId(0)) * bm;
  BackwardSequence seq = packedSequence(k, in, cuQ, cuK, k.programId(2));
  std::vector<Tile> dQ = backwardQueryBlock(k, cfg, variant, in, seq, head, row0);
  ColumnBlocks(rowsInside(k, dq, seq.qFirst, seq.seqQ), {1, bm}, cfg.qkParts())
      .store({head, row0}, convertedParts(dQ, cfg.dtype));
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

namespace {

/// A packed batch of ragged sequences (varlenLengths) for the CPU runs, with
/// the conversions between its [total, h, c] arrays and the reference's
/// per-sequence [h, n, c] ones (c: d for Q and K, dv for V and O).
struct PackedBatch {
  int64_t batch, heads, kvHeads, d, dv;
  std::vector<int64_t> lensQ, lensK, cuQ{0}, cuK{0};

  PackedBatch(const AttentionConfig &cfg, const Params &sizes)
      : batch(sizes.getInt("batch")), heads(sizes.getInt("heads")),
        kvHeads(std::max<int64_t>(1, heads / cfg.group)), d(cfg.headDim), dv(cfg.valueDim()),
        lensQ(varlenLengths(batch, sizes.getInt("seq_q"), false)),
        lensK(varlenLengths(batch, sizes.getInt("seq_k"), true)) {
    for (int64_t b = 0; b < batch; ++b) {
      cuQ.push_back(cuQ.back() + lensQ[b]);
      cuK.push_back(cuK.back() + lensK[b]);
    }
  }
  int64_t totalQ() const { return cuQ.back(); }
  int64_t totalK() const { return cuK.back(); }
  int64_t longestQ() const { return *std::max_element(lensQ.begin(), lensQ.end()); }
  int64_t longestK() const { return *std::max_element(lensK.begin(), lensK.end()); }
  /// Row of the backward's statistics that holds sequence b's query 0 (as
  /// the kernels' statFirst).
  int64_t statFirst(int64_t b) const { return 4 * (cuQ[b] / 4 + b); }
  int64_t statRows() const { return varlenStatRows(totalQ(), batch); }

  /// What the prep kernel makes of packed O, dO and LSE ([heads, total_q]):
  /// delta = rowsum(dO ∘ O) and lse_log2 (f32) at each sequence's statistics
  /// rows; the rows between sequences keep what `delta` and `lse2` held.
  void statistics(const std::vector<double> &o, const std::vector<double> &dO,
                  const std::vector<double> &lse, std::vector<double> &delta,
                  std::vector<double> &lse2) const {
    const int64_t rows = statRows();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t h = 0; h < heads; ++h)
        for (int64_t i = 0; i < lensQ[b]; ++i) {
          const int64_t row = cuQ[b] + i, stat = h * rows + statFirst(b) + i;
          double sum = 0;
          for (int64_t t = 0; t < dv; ++t)
            sum += o[(row * heads + h) * dv + t] * dO[(row * heads + h) * dv + t];
          delta[stat] = roundTo(DType::F32, sum);
          const double l = lse[h * totalQ() + row];
          lse2[stat] = l == -kInf ? kInf : roundTo(DType::F32, l * M_LOG2E);
        }
  }

  static HostBuffer offsets(const std::string &name, const std::vector<int64_t> &cu) {
    return HostBuffer{name, DType::I32, std::vector<double>(cu.begin(), cu.end())};
  }
  /// A [total, h, c] buffer as the kernels' [h, total, c] view.
  static TensorBinding view(int buffer, int64_t total, int64_t h, int64_t c) {
    return TensorBinding{buffer, {h, total, c}, {c, h * c, 1}};
  }
  /// Rows [first, first + n) of a [total, h, c] array as [h, n, c].
  static std::vector<double> gather(const std::vector<double> &from, int64_t first, int64_t n,
                                    int64_t h, int64_t c) {
    std::vector<double> to(h * n * c);
    for (int64_t hh = 0; hh < h; ++hh)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t t = 0; t < c; ++t)
          to[(hh * n + i) * c + t] = from[((first + i) * h + hh) * c + t];
    return to;
  }
  /// ... and back.
  static void scatter(const std::vector<double> &from, std::vector<double> &to, int64_t first,
                      int64_t n, int64_t h, int64_t c) {
    for (int64_t hh = 0; hh < h; ++hh)
      for (int64_t i = 0; i < n; ++i)
        for (int64_t t = 0; t < c; ++t)
          to[((first + i) * h + hh) * c + t] = from[(hh * n + i) * c + t];
  }
};

/// Random packed Q, K, V, dO and, from the reference one sequence at a
/// time, O, LSE ([heads, total_q], natural log) and the gradients.
struct PackedProblem {
  std::vector<HostBuffer> inputs; ///< q, k, v, do
  std::vector<double> o, lse, dq, dk, dv;
};

PackedProblem solvePacked(const AttentionConfig &cfg, const AttentionVariant &variant,
                          const PackedBatch &pb, const Params &sizes, uint64_t seed,
                          bool gradients) {
  const int64_t d = pb.d, dv = pb.dv, heads = pb.heads, kvHeads = pb.kvHeads;
  const int64_t totalQ = pb.totalQ(), totalK = pb.totalK();
  const double amplitude = sizes.getFloat("amplitude");
  std::mt19937_64 rng(seed);
  PackedProblem p;
  p.inputs = {examples::randomBuffer("q", cfg.dtype, totalQ * heads * d, rng, amplitude),
              examples::randomBuffer("k", cfg.dtype, totalK * kvHeads * d, rng, amplitude),
              examples::randomBuffer("v", cfg.dtype, totalK * kvHeads * dv, rng)};
  if (gradients)
    p.inputs.push_back(examples::randomBuffer("do", cfg.dtype, totalQ * heads * dv, rng));
  p.o.assign(totalQ * heads * dv, 0.0);
  p.lse.assign(heads * totalQ, 0.0);
  if (gradients) {
    p.dq.assign(totalQ * heads * d, 0.0);
    p.dk.assign(totalK * kvHeads * d, 0.0);
    p.dv.assign(totalK * kvHeads * dv, 0.0);
  }
  for (int64_t b = 0; b < pb.batch; ++b) {
    const int64_t q0 = pb.cuQ[b], k0 = pb.cuK[b], nq = pb.lensQ[b], nk = pb.lensK[b];
    ReferenceAttention ref{heads, nq, nk, d, cfg.group, cfg.scale, &variant};
    ref.headDimV = dv;
    std::vector<double> Q = pb.gather(p.inputs[0].data, q0, nq, heads, d);
    std::vector<double> K = pb.gather(p.inputs[1].data, k0, nk, kvHeads, d);
    std::vector<double> V = pb.gather(p.inputs[2].data, k0, nk, kvHeads, dv);
    std::vector<double> out, lse;
    ref.forward(Q, K, V, out, lse);
    pb.scatter(out, p.o, q0, nq, heads, dv);
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t i = 0; i < nq; ++i)
        p.lse[h * totalQ + q0 + i] = lse[h * nq + i];
    if (!gradients)
      continue;
    std::vector<double> dq, dk, dV;
    ref.backward(Q, K, V, pb.gather(p.inputs[3].data, q0, nq, heads, dv), dq, dk, dV);
    pb.scatter(dq, p.dq, q0, nq, heads, d);
    pb.scatter(dk, p.dk, k0, nk, kvHeads, d);
    pb.scatter(dV, p.dv, k0, nk, kvHeads, dv);
  }
  return p;
}

} // namespace

RunPlan planAttentionVarlen(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed) {
  PackedBatch pb(cfg, sizes);
  PackedProblem p = solvePacked(cfg, variant, pb, sizes, seed, /*gradients=*/false);
  const int64_t heads = pb.heads, d = pb.d, dv = pb.dv, totalQ = pb.totalQ(), totalK = pb.totalK();
  RunPlan plan;
  plan.memory = p.inputs;
  plan.memory.push_back(examples::outputBuffer("o", cfg.dtype, totalQ * heads * dv));
  plan.memory.push_back(examples::outputBuffer("lse", DType::F32, heads * totalQ));
  plan.memory.push_back(PackedBatch::offsets("cu_seqlens_q", pb.cuQ));
  plan.memory.push_back(PackedBatch::offsets("cu_seqlens_k", pb.cuK));
  plan.args = {pb.view(0, totalQ, heads, d),
               pb.view(1, totalK, pb.kvHeads, d),
               pb.view(2, totalK, pb.kvHeads, dv),
               pb.view(3, totalQ, heads, dv),
               TensorBinding{4, {heads, totalQ}, {totalQ, 1}},
               TensorBinding{5, {pb.batch + 1}, {1}},
               TensorBinding{6, {pb.batch + 1}, {1}},
               static_cast<double>(pb.longestQ())};
  plan.grid = {std::max<int64_t>(1, examples::ceilDiv(pb.longestQ(), cfg.blockM)), heads,
               pb.batch};
  plan.expected = {{3, p.o}, {4, p.lse}};
  plan.tolerance = 2e-2; // bf16 P and O
  return plan;
}

RunPlan planAttentionVarlenBackwardPrep(const AttentionConfig &cfg, const Params &sizes,
                                        uint64_t seed) {
  PackedBatch pb(cfg, sizes);
  const int64_t heads = pb.heads, d = pb.dv, totalQ = pb.totalQ(), rows = pb.statRows();
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("o", cfg.dtype, totalQ * heads * d, rng),
                 examples::randomBuffer("do", cfg.dtype, totalQ * heads * d, rng),
                 examples::randomBuffer("lse", DType::F32, heads * totalQ, rng, 10.0),
                 examples::outputBuffer("delta", DType::F32, heads * rows),
                 examples::outputBuffer("lse_log2", DType::F32, heads * rows),
                 PackedBatch::offsets("cu_seqlens_q", pb.cuQ)};
  std::vector<double> &lse = plan.memory[2].data;
  for (size_t r = 0; r < lse.size(); r += 7)
    lse[r] = -kInf; // rows that saw no key
  plan.args = {pb.view(0, totalQ, heads, d),
               pb.view(1, totalQ, heads, d),
               TensorBinding{2, {heads, totalQ}, {totalQ, 1}},
               TensorBinding{3, {heads, rows}, {rows, 1}},
               TensorBinding{4, {heads, rows}, {rows, 1}},
               TensorBinding{5, {pb.batch + 1}, {1}},
               static_cast<double>(pb.longestQ())};
  plan.grid = {std::max<int64_t>(1, examples::ceilDiv(pb.longestQ(), cfg.blockM)), heads,
               pb.batch};
  // Rows between the sequences' statistics stay as they were.
  std::vector<double> delta = plan.memory[3].data, lse2 = plan.memory[4].data;
  pb.statistics(plan.memory[0].data, plan.memory[1].data, lse, delta, lse2);
  plan.expected = {{3, delta}, {4, lse2}};
  plan.tolerance = 1e-5; // f32 sums of products of exact inputs
  return plan;
}

namespace {

/// The dK/dV and dQ runs: packed inputs, the statistics the prep kernel
/// makes of the reference's O and LSE (NaN in the rows between sequences,
/// which no gradient may read), and the reference gradients.
struct PackedBackwardRun {
  PackedBatch pb;
  PackedProblem p;
  RunPlan plan;
};

PackedBackwardRun packedBackwardRun(const AttentionConfig &cfg, const AttentionVariant &variant,
                                    const Params &sizes, uint64_t seed) {
  PackedBackwardRun run{PackedBatch(cfg, sizes), {}, {}};
  const PackedBatch &pb = run.pb;
  run.p = solvePacked(cfg, variant, pb, sizes, seed, /*gradients=*/true);
  const int64_t heads = pb.heads, totalQ = pb.totalQ(), rows = pb.statRows();
  std::vector<double> delta(heads * rows, std::nan("")), lse2(heads * rows, std::nan(""));
  pb.statistics(run.p.o, run.p.inputs[3].data, run.p.lse, delta, lse2);
  run.plan.memory = run.p.inputs;
  run.plan.memory.push_back(HostBuffer{"lse_log2", DType::F32, std::move(lse2)});
  run.plan.memory.push_back(HostBuffer{"delta", DType::F32, std::move(delta)});
  run.plan.args = {pb.view(0, totalQ, heads, pb.d),
                   pb.view(1, pb.totalK(), pb.kvHeads, pb.d),
                   pb.view(2, pb.totalK(), pb.kvHeads, pb.dv),
                   pb.view(3, totalQ, heads, pb.dv),
                   TensorBinding{4, {heads, rows}, {rows, 1}},
                   TensorBinding{5, {heads, rows}, {rows, 1}}};
  run.plan.tolerance = 1e-2; // as the dense backward's
  return run;
}

/// Appends the offsets (buffers and arguments) and the grid's scalar.
void appendOffsets(RunPlan &plan, const PackedBatch &pb, int64_t longest) {
  const int first = static_cast<int>(plan.memory.size());
  plan.memory.push_back(PackedBatch::offsets("cu_seqlens_q", pb.cuQ));
  plan.memory.push_back(PackedBatch::offsets("cu_seqlens_k", pb.cuK));
  plan.args.push_back(TensorBinding{first, {pb.batch + 1}, {1}});
  plan.args.push_back(TensorBinding{first + 1, {pb.batch + 1}, {1}});
  plan.args.push_back(static_cast<double>(longest));
}

} // namespace

RunPlan planAttentionVarlenBackwardKV(const AttentionConfig &cfg, const AttentionVariant &variant,
                                      const Params &sizes, uint64_t seed) {
  PackedBackwardRun run = packedBackwardRun(cfg, variant, sizes, seed);
  const PackedBatch &pb = run.pb;
  RunPlan &plan = run.plan;
  const int64_t keys = pb.totalK() * pb.kvHeads;
  plan.memory.push_back(examples::outputBuffer("dk", cfg.dtype, keys * pb.d));
  plan.memory.push_back(examples::outputBuffer("dv", cfg.dtype, keys * pb.dv));
  plan.args.push_back(pb.view(6, pb.totalK(), pb.kvHeads, pb.d));
  plan.args.push_back(pb.view(7, pb.totalK(), pb.kvHeads, pb.dv));
  appendOffsets(plan, pb, pb.longestK());
  plan.grid = {std::max<int64_t>(1, examples::ceilDiv(pb.longestK(), cfg.blockN)), pb.kvHeads,
               pb.batch};
  plan.expected = {{6, run.p.dk}, {7, run.p.dv}};
  return plan;
}

RunPlan planAttentionVarlenBackwardQ(const AttentionConfig &cfg, const AttentionVariant &variant,
                                     const Params &sizes, uint64_t seed) {
  PackedBackwardRun run = packedBackwardRun(cfg, variant, sizes, seed);
  const PackedBatch &pb = run.pb;
  RunPlan &plan = run.plan;
  plan.memory.push_back(examples::outputBuffer("dq", cfg.dtype, pb.totalQ() * pb.heads * pb.d));
  plan.args.push_back(pb.view(6, pb.totalQ(), pb.heads, pb.d));
  appendOffsets(plan, pb, pb.longestQ());
  plan.grid = {std::max<int64_t>(1, examples::ceilDiv(pb.longestQ(), cfg.blockM)), pb.heads,
               pb.batch};
  plan.expected = {{6, run.p.dq}};
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
