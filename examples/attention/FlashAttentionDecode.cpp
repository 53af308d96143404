//===- FlashAttentionDecode.cpp - split-KV decoding with packed GQA -------===//
//
// A decoding step attends a few new query tokens per sequence to a long K/V
// cache. Two things make it fast where the forward's grid is not:
//
// * Packed GQA: a program takes every query head of one K/V head as rows
//   (the [B·Hq, seq_q, d] queries viewed as [B·Hkv, group·seq_q, d]), so each
//   K/V block is read once for all of them instead of once per query head.
// * Split KV: the keys are cut into `splits` runs of whole blocks, a program
//   per run, so a batch of a few heads still fills every SM; a combine
//   kernel merges the runs' (O, LSE) pairs by the online-softmax rule.
//
// The same body reads a contiguous cache or a paged one (pages found
// through a block table, one-value loads the streams compute ahead).
//
//===----------------------------------------------------------------------===//

#include "FlashAttention.h"

#include "../ExampleSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace tilec::attention {

using namespace tilec::dsl;

static constexpr double kInf = std::numeric_limits<double>::infinity();

int64_t decodeSplitKeys(int64_t seqK, int64_t splits, int64_t blockN) {
  int64_t blocks = examples::ceilDiv(seqK, blockN);
  return examples::ceilDiv(blocks, std::max<int64_t>(splits, 1)) * blockN;
}

namespace {

/// The decoding kernels' outputs.
struct DecodeOutputs {
  TensorArg o, lse, oPart, lsePart;
};

/// The body every decoding kernel shares, after its parameters: the packed
/// query rows, the variant's key range cut into this program's run, the key
/// loop, the result or the run's part. `seqKOf` gives the keys of K/V head
/// `kvHead`'s sequence, `keysOf` its blocks (made just before the loop).
void decodeBody(KernelBuilder &k, const AttentionConfig &cfg, const AttentionVariant &variant,
                const TensorArg &q, const DecodeOutputs &out,
                const std::function<Tile(Tile kvHead)> &seqKOf,
                const std::function<KeyBlocks(Tile kvHead)> &keysOf) {
  const int64_t bm = cfg.blockM, bn = cfg.blockN, group = cfg.group;
  if (cfg.splitColumns) // its 32- and 16-column tiles as wgmma B operands too
    k.narrowWgmmaOperands();
  Tile split = k.programId(0), splits = k.numPrograms(0);
  Tile kvHead = k.programId(1), row0 = k.programId(2) * bm;
  Tile seqK = seqKOf(kvHead);
  // Packed row r is query position r mod seq_q of query head r div seq_q
  // within the group (seq_q = 0 only for an empty q, whose rows are none).
  Tile seqQ = max(q.dim(1) / group, k.constant(1, DType::I32));
  Tile rows = row0 + k.iota(bm);
  QueryRows queries{ColumnBlocks(q, {1, bm}, cfg.qkParts()).load({kvHead, row0}), rows % seqQ,
                    (kvHead * group + rows / seqQ).col()};

  // The variant's keys for every query position at once: positions lie in
  // [0, seq_q), within [0, block_m) when seq_q <= block_m. Longer queries
  // visit every key with every block masked (correct, only slower).
  Tile zero = k.constant(0, DType::I32);
  RangeContext rangeCtx{k, zero, bm, bn, seqQ, seqK};
  KeyRange range = keyRangeOf(variant, rangeCtx);
  if (variant.keyRange) {
    Tile wide = seqQ > bm;
    range = {where(wide, zero, range.lo), where(wide, seqK, range.hi),
             where(wide, zero, range.fullLo), where(wide, zero, range.fullHi)};
  }
  // This program's run of whole blocks (decodeSplitKeys), met with the range.
  Tile runKeys = (seqK + (bn - 1)) / bn;
  runKeys = (runKeys + splits - 1) / splits * bn;
  Tile runLo = split * runKeys, runHi = min(runLo + runKeys, seqK);
  Tile lo = max(range.lo, runLo), hi = max(min(range.hi, runHi), lo);
  KeyRange run{lo, hi, max(range.fullLo, lo), min(range.fullHi, hi)};

  AttentionConfig loopCfg = cfg;
  loopCfg.rowGroups = 1;
  loopCfg.overlap = false;
  KeyBlocks keys = keysOf(kvHead);
  KeyLoopState state = attendKeys(k, loopCfg, variant, {queries}, keys, seqQ, seqK, run)[0];
  // The run's normalized output and log-sum-exp (0 and -inf for a run with
  // no visible key: the combine gives it no weight); with one run, the
  // result itself.
  std::vector<Tile> result;
  for (const Tile &acc : state.acc)
    result.push_back(normalizeRows(acc, state.l));
  Tile resultLse = (state.m + log2(state.l)) * M_LN2;
  k.ifThen(splits == 1, [&] {
    ColumnBlocks(out.o, {1, bm}, cfg.vParts()).store({kvHead, row0},
                                                      convertedParts(result, cfg.dtype));
    out.lse.desc({1, bm}).store({kvHead, row0}, resultLse);
  });
  k.ifThen(splits > 1, [&] {
    ColumnBlocks(out.oPart, {1, 1, bm}, cfg.vParts()).store({split, kvHead, row0}, result);
    out.lsePart.desc({1, 1, bm}).store({split, kvHead, row0}, resultLse);
  });
}

DecodeOutputs decodeOutputs(KernelBuilder &k, const AttentionConfig &cfg) {
  TensorArg o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim()),
            lse = k.tensor("lse", DType::F32, 2);
  TensorArg oPart = headDimTensor(k, "o_part", DType::F32, 4, cfg.valueDim());
  return {o, lse, oPart, k.tensor("lse_part", DType::F32, 3)};
}

} // namespace

void buildAttentionDecode(KernelBuilder &k, const AttentionConfig &cfg,
                          const AttentionVariant &variant) {
  TensorArg q = headDimTensor(k, "q", cfg.dtype, 3, cfg.headDim),
            key = headDimTensor(k, "k", cfg.dtype, 3, cfg.headDim);
  TensorArg v = headDimTensor(k, "v", cfg.dtype, 3, cfg.valueDim());
  DecodeOutputs out = decodeOutputs(k, cfg);
  KeyPartBlocks kBlocks, vBlocks;
  decodeBody(
      k, cfg, variant, q, out, [&](Tile) { return key.dim(1); },
      [&](Tile kvHead) {
        kBlocks = KeyPartBlocks(key, cfg.keyParts(), cfg.qkParts());
        vBlocks = KeyPartBlocks(v, cfg.keyParts(), cfg.vParts());
        return KeyBlocks{
            [&, kvHead](Tile j, size_t part) { return kBlocks.load(kvHead, j, part); },
            [&, kvHead](Tile j, size_t part) { return vBlocks.load(kvHead, j, part); }};
      });
}

void buildAttentionDecodePaged(KernelBuilder &k, const AttentionConfig &cfg,
                               const AttentionVariant &variant, int64_t pageSize) {
  const int64_t bn = cfg.blockN;
  if (pageSize < bn || pageSize % bn != 0) {
    k.error(Where::current(), "page_size = " + std::to_string(pageSize) +
                                  " must be a multiple of block_n = " + std::to_string(bn) +
                                  " (a key block lies in one page)");
    return;
  }
  TensorArg q = headDimTensor(k, "q", cfg.dtype, 3, cfg.headDim);
  TensorArg kCache = headDimTensor(k, "k_cache", cfg.dtype, 3, cfg.headDim),
            vCache = headDimTensor(k, "v_cache", cfg.dtype, 3, cfg.valueDim());
  TensorArg table = k.tensor("block_table", DType::I32, 2);
  TensorArg lens = k.tensor("seq_lens", DType::I32, 1);
  DecodeOutputs out = decodeOutputs(k, cfg);
  // K/V head `kvHead` = b·Hkv + h: sequence b, head h of the cache.
  Tile zero = k.constant(0, DType::I32);
  auto sequence = [&](Tile kvHead) { return kvHead / max(kCache.dim(0), 1); };
  KeyPartBlocks kBlocks, vBlocks;
  decodeBody(
      k, cfg, variant, q, out,
      [&](Tile kvHead) {
        // The sequence's cached keys, at most what its table row holds.
        Tile b = sequence(kvHead);
        Tile length = load(lens.base() + b.to(DType::I64) * lens.stride(0), b < lens.dim(0), 0);
        return min(max(length, zero), table.dim(1) * pageSize);
      },
      [&](Tile kvHead) {
        Tile b = sequence(kvHead), h = kvHead % max(kCache.dim(0), 1);
        Tile tableRow = table.base() + b.to(DType::I64) * table.stride(0);
        Tile known = b < table.dim(0), lastPage = max(kCache.dim(1) / pageSize - 1, zero);
        // Key j's row of the cache: its page's (from the table, clamped
        // into the cache), then its slot in the page.
        auto cacheRow = [=](Tile j) {
          Tile slot = j / pageSize;
          Tile page = load(tableRow + slot.to(DType::I64) * table.stride(1),
                           known && slot < table.dim(1), 0);
          return max(min(page, lastPage), zero) * pageSize + j % pageSize;
        };
        kBlocks = KeyPartBlocks(kCache, cfg.keyParts(), cfg.qkParts());
        vBlocks = KeyPartBlocks(vCache, cfg.keyParts(), cfg.vParts());
        return KeyBlocks{
            [&, h, cacheRow](Tile j, size_t part) { return kBlocks.load(h, cacheRow(j), part); },
            [&, h, cacheRow](Tile j, size_t part) { return vBlocks.load(h, cacheRow(j), part); }};
      });
}

void buildAttentionDecodeCombine(KernelBuilder &k, const AttentionConfig &cfg) {
  const int64_t d = cfg.vColumns(), bm = cfg.blockM;
  TensorArg oPart = headDimTensor(k, "o_part", DType::F32, 4, cfg.valueDim());
  TensorArg lsePart = k.tensor("lse_part", DType::F32, 3);
  TensorArg o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim()),
            lse = k.tensor("lse", DType::F32, 2);
  TensorDesc oRuns = oPart.desc({1, 1, bm, d}), lseRuns = lsePart.desc({1, 1, bm});
  Tile head = k.programId(1), row0 = k.programId(0) * bm, splits = oPart.dim(0);

  // LSE = m + log Σ_s exp(lse_s − m) with m = max_s lse_s and O = Σ_s
  // exp(lse_s − LSE) O_s, in one pass with the running max (as the online
  // softmax), `unroll` runs per step so their loads are in flight together.
  // Runs past the last read zeros and count as -inf; rows no run saw keep
  // m = -inf and get O = 0, LSE = -inf.
  constexpr int64_t unroll = 4;
  auto offset = [](Tile m) { return where(m == -kInf, 0.0, m); };
  std::vector<Tile> state = k.forRange(
      0, splits, unroll,
      {k.zeros({bm, d}, DType::F32), k.full({bm}, -kInf, DType::F32), k.zeros({bm}, DType::F32)},
      [&](Tile s0, std::vector<Tile> st) -> std::vector<Tile> {
        std::vector<Tile> runLse, runO;
        Tile m = st[1];
        for (int64_t u = 0; u < unroll; ++u) {
          runLse.push_back(where(s0 + u < splits, lseRuns.load({s0 + u, head, row0}), -kInf));
          runO.push_back(oRuns.load({s0 + u, head, row0, 0}));
          m = max(m, runLse.back());
        }
        Tile base = offset(m), alpha = exp(st[1] - base);
        Tile acc = st[0] * alpha.col(), l = st[2] * alpha;
        for (int64_t u = 0; u < unroll; ++u) {
          Tile w = exp(runLse[u] - base);
          acc = acc + runO[u] * w.col();
          l = l + w;
        }
        return {acc, m, l};
      });
  Tile l = state[2];
  o.desc({1, bm, d}).store({head, row0, 0}, normalizeRows(state[0], l).to(cfg.dtype));
  lse.desc({1, bm}).store({head, row0}, offset(state[1]) + log2(l) * M_LN2);
}

//===----------------------------------------------------------------------===//
// CPU runs
//===----------------------------------------------------------------------===//

namespace {

/// The problem of a decoding run: B sequences, kv_heads K/V heads of
/// `group` query heads each, seq_q query tokens against seq_k keys.
struct DecodeShape {
  int64_t batch, kvHeads, group, seqQ, seqK, splits, headDim, headDimV;
  int64_t bhQ() const { return batch * kvHeads * group; }
  int64_t bhK() const { return batch * kvHeads; }
  int64_t rows() const { return group * seqQ; } ///< packed rows per K/V head
};

DecodeShape decodeShape(const AttentionConfig &cfg, const Params &sizes) {
  return {sizes.getInt("batch"), sizes.getInt("kv_heads"), cfg.group,   sizes.getInt("seq_q"),
          sizes.getInt("seq_k"), sizes.getInt("splits"),   cfg.headDim, cfg.valueDim()};
}

/// The split outputs as [splits, B·Hkv, rows(, d)] tensors.
std::vector<ArgBinding> partBindings(const DecodeShape &s, int oBuffer, int lseBuffer) {
  const int64_t r = s.rows(), d = s.headDimV, bh = s.bhK();
  return {TensorBinding{oBuffer, {s.splits, bh, r, d}, {bh * r * d, r * d, d, 1}},
          TensorBinding{lseBuffer, {s.splits, bh, r}, {bh * r, r, 1}}};
}

} // namespace

RunPlan planAttentionDecode(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed) {
  const DecodeShape s = decodeShape(cfg, sizes);
  const int64_t d = s.headDim, dv = s.headDimV, r = s.rows();
  std::mt19937_64 rng(seed);
  const double amplitude = sizes.getFloat("amplitude");

  RunPlan plan;
  plan.memory = {examples::randomBuffer("q", cfg.dtype, s.bhQ() * s.seqQ * d, rng, amplitude),
                 examples::randomBuffer("k", cfg.dtype, s.bhK() * s.seqK * d, rng, amplitude),
                 examples::randomBuffer("v", cfg.dtype, s.bhK() * s.seqK * dv, rng),
                 examples::outputBuffer("o", cfg.dtype, s.bhK() * r * dv),
                 examples::outputBuffer("lse", DType::F32, s.bhK() * r),
                 examples::outputBuffer("o_part", DType::F32, s.splits * s.bhK() * r * dv),
                 examples::outputBuffer("lse_part", DType::F32, s.splits * s.bhK() * r)};
  // The queries [B·Hq, seq_q, d] as [B·Hkv, group·seq_q, d]: the same memory
  // (and O, LSE as the forward's, alike).
  plan.args = {TensorBinding{0, {s.bhK(), r, d}, {r * d, d, 1}},
               TensorBinding{1, {s.bhK(), s.seqK, d}, {s.seqK * d, d, 1}},
               TensorBinding{2, {s.bhK(), s.seqK, dv}, {s.seqK * dv, dv, 1}},
               TensorBinding{3, {s.bhK(), r, dv}, {r * dv, dv, 1}},
               TensorBinding{4, {s.bhK(), r}, {r, 1}}};
  for (ArgBinding &part : partBindings(s, 5, 6))
    plan.args.push_back(part);
  plan.grid = {s.splits, s.bhK(), examples::ceilDiv(r, cfg.blockM)};

  // Each split's keys on their own, in double precision.
  const int64_t runKeys = decodeSplitKeys(s.seqK, s.splits, cfg.blockN);
  std::vector<double> oWant, lseWant;
  for (int64_t split = 0; split < s.splits; ++split) {
    ReferenceAttention ref{s.bhQ(), s.seqQ, s.seqK, d, s.group, cfg.scale, &variant};
    ref.headDimV = dv;
    ref.keyLo = split * runKeys;
    ref.keyHi = std::min(ref.keyLo + runKeys, s.seqK);
    std::vector<double> out, lse;
    ref.forward(plan.memory[0].data, plan.memory[1].data, plan.memory[2].data, out, lse);
    oWant.insert(oWant.end(), out.begin(), out.end()); // [B·Hq, seq_q] = [B·Hkv, rows]
    lseWant.insert(lseWant.end(), lse.begin(), lse.end());
  }
  // One split is the whole result, written as O and LSE.
  plan.expected = s.splits == 1 ? std::vector<RunPlan::Expected>{{3, oWant}, {4, lseWant}}
                                : std::vector<RunPlan::Expected>{{5, oWant}, {6, lseWant}};
  plan.tolerance = 2e-2; // bf16 P
  return plan;
}

RunPlan planAttentionDecodePaged(const AttentionConfig &cfg, const AttentionVariant &variant,
                                 int64_t pageSize, const Params &sizes, uint64_t seed) {
  const DecodeShape s = decodeShape(cfg, sizes);
  const int64_t d = s.headDim, dv = s.headDimV, r = s.rows(), hkv = s.kvHeads;
  const int64_t hq = hkv * s.group;
  const int64_t batch = s.batch, P = pageSize;
  std::mt19937_64 rng(seed);
  // Ragged lengths: the longest, none, one key, and between.
  std::vector<int64_t> lengths;
  for (int64_t b = 0; b < batch; ++b)
    lengths.push_back(b == 0 ? s.seqK : b == 1 ? 0 : b == 2 ? 1 : s.seqK * (b + 1) / (batch + 1));
  const int64_t maxPages = std::max<int64_t>(1, examples::ceilDiv(s.seqK, P));
  int64_t used = 0;
  for (int64_t l : lengths)
    used += examples::ceilDiv(l, P);
  // Pages in shuffled order, three more than needed (never read).
  const int64_t numPages = used + 3;
  std::vector<int64_t> order(numPages);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<double> table(batch * maxPages, 0.0);
  for (int64_t b = 0, next = 0; b < batch; ++b)
    for (int64_t slot = 0; slot < examples::ceilDiv(lengths[b], P); ++slot)
      table[b * maxPages + slot] = static_cast<double>(order[next++]);

  const double amplitude = sizes.getFloat("amplitude");
  RunPlan plan;
  plan.memory = {
      examples::randomBuffer("q", cfg.dtype, batch * hq * s.seqQ * d, rng, amplitude),
      examples::randomBuffer("k_cache", cfg.dtype, numPages * P * hkv * d, rng, amplitude),
      examples::randomBuffer("v_cache", cfg.dtype, numPages * P * hkv * dv, rng),
      HostBuffer{"block_table", DType::I32, table},
      HostBuffer{"seq_lens", DType::I32, std::vector<double>(lengths.begin(), lengths.end())},
      examples::outputBuffer("o", cfg.dtype, batch * hkv * r * dv),
      examples::outputBuffer("lse", DType::F32, batch * hkv * r),
      examples::outputBuffer("o_part", DType::F32, s.splits * batch * hkv * r * dv),
      examples::outputBuffer("lse_part", DType::F32, s.splits * batch * hkv * r)};
  // The caches [num_pages, page_size, Hkv, d] as [Hkv, num_pages·page_size, d].
  auto cache = [&](int buffer, int64_t columns) {
    return TensorBinding{buffer, {hkv, numPages * P, columns}, {columns, hkv * columns, 1}};
  };
  plan.args = {TensorBinding{0, {batch * hkv, r, d}, {r * d, d, 1}},
               cache(1, d),
               cache(2, dv),
               TensorBinding{3, {batch, maxPages}, {maxPages, 1}},
               TensorBinding{4, {batch}, {1}},
               TensorBinding{5, {batch * hkv, r, dv}, {r * dv, dv, 1}},
               TensorBinding{6, {batch * hkv, r}, {r, 1}}};
  for (ArgBinding &part : partBindings(s, 7, 8))
    plan.args.push_back(part);
  plan.grid = {s.splits, batch * hkv, examples::ceilDiv(r, cfg.blockM)};

  // Per sequence and split: the reference over that sequence's keys,
  // gathered from its pages.
  std::vector<double> oWant(s.splits * batch * hkv * r * dv), lseWant(s.splits * batch * hkv * r);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t n = lengths[b];
    std::vector<double> q(plan.memory[0].data.begin() + b * hq * s.seqQ * d,
                          plan.memory[0].data.begin() + (b + 1) * hq * s.seqQ * d);
    std::vector<double> k(hkv * n * d), v(hkv * n * dv);
    for (int64_t h = 0; h < hkv; ++h)
      for (int64_t i = 0; i < n; ++i) {
        int64_t row = static_cast<int64_t>(table[b * maxPages + i / P]) * P + i % P;
        for (int64_t t = 0; t < d; ++t)
          k[(h * n + i) * d + t] = plan.memory[1].data[(row * hkv + h) * d + t];
        for (int64_t t = 0; t < dv; ++t)
          v[(h * n + i) * dv + t] = plan.memory[2].data[(row * hkv + h) * dv + t];
      }
    const int64_t runKeys = decodeSplitKeys(n, s.splits, cfg.blockN);
    for (int64_t split = 0; split < s.splits; ++split) {
      ReferenceAttention ref{hq, s.seqQ, n, d, s.group, cfg.scale, &variant};
      ref.headDimV = dv;
      ref.keyLo = split * runKeys;
      ref.keyHi = std::min(ref.keyLo + runKeys, n);
      ref.firstHead = b * hq;
      std::vector<double> out, lse;
      ref.forward(q, k, v, out, lse);
      const int64_t at = (split * batch + b) * hkv * r; // [hq, seq_q] = [hkv, rows]
      std::copy(out.begin(), out.end(), oWant.begin() + at * dv);
      std::copy(lse.begin(), lse.end(), lseWant.begin() + at);
    }
  }
  plan.expected = s.splits == 1 ? std::vector<RunPlan::Expected>{{5, oWant}, {6, lseWant}}
                                : std::vector<RunPlan::Expected>{{7, oWant}, {8, lseWant}};
  plan.tolerance = 2e-2; // bf16 P
  return plan;
}

RunPlan planAttentionDecodeCombine(const AttentionConfig &cfg, const Params &sizes,
                                   uint64_t seed) {
  const DecodeShape s = decodeShape(cfg, sizes);
  const int64_t d = s.headDimV, r = s.rows(), bh = s.bhK();
  std::mt19937_64 rng(seed);
  RunPlan plan;
  HostBuffer oPart = examples::randomBuffer("o_part", DType::F32, s.splits * bh * r * d, rng);
  HostBuffer lsePart = examples::randomBuffer("lse_part", DType::F32, s.splits * bh * r, rng,
                                              sizes.getFloat("amplitude") * 4);
  // Runs that saw no key (-inf) in a pattern that leaves some rows with none.
  for (int64_t i = 0; i < s.splits * bh * r; ++i)
    if ((i * 7 + i / r) % 5 == 0 || (i % (bh * r)) % 11 == 3)
      lsePart.data[i] = -kInf;
  plan.memory = {oPart, lsePart, examples::outputBuffer("o", cfg.dtype, bh * r * d),
                 examples::outputBuffer("lse", DType::F32, bh * r)};
  plan.args = partBindings(s, 0, 1);
  plan.args.push_back(TensorBinding{2, {bh, r, d}, {r * d, d, 1}});
  plan.args.push_back(TensorBinding{3, {bh, r}, {r, 1}});
  plan.grid = {examples::ceilDiv(r, cfg.blockM), bh, 1};

  std::vector<double> oWant(bh * r * d, 0.0), lseWant(bh * r, -kInf);
  for (int64_t row = 0; row < bh * r; ++row) {
    double m = -kInf;
    for (int64_t split = 0; split < s.splits; ++split)
      m = std::max(m, lsePart.data[split * bh * r + row]);
    if (m == -kInf)
      continue;
    double sum = 0;
    for (int64_t split = 0; split < s.splits; ++split)
      sum += std::exp(lsePart.data[split * bh * r + row] - m);
    lseWant[row] = m + std::log(sum);
    for (int64_t split = 0; split < s.splits; ++split) {
      double w = std::exp(lsePart.data[split * bh * r + row] - lseWant[row]);
      for (int64_t t = 0; t < d; ++t)
        oWant[row * d + t] += w * oPart.data[(split * bh * r + row) * d + t];
    }
  }
  plan.expected = {{2, oWant}, {3, lseWant}};
  plan.tolerance = 1e-2; // O rounded to bf16
  return plan;
}

std::vector<ParamSpec> attentionDecodeParams() {
  using T = ParamSpec::Type;
  std::vector<ParamSpec> params =
      withoutForwardLoopParams(attentionParams());
  for (ParamSpec &spec : params)
    if (spec.name == "block_m")
      spec.help = "packed query rows (query heads x query tokens) per program (0: by head_dim)";
  params.push_back({.name = "group", .type = T::Int, .defaultValue = "1",
                    .help = "query heads per K/V head (GQA; MQA: all), packed as rows", .min = 1,
                    .max = 256});
  return params;
}

AttentionSchedule defaultDecodeSchedule(int64_t headDim, const TargetInfo &target, bool paged) {
  // Decoding reads K and V once and computes little on them: the tiles are
  // sized for bytes in flight, not for the tensor cores. 64 packed rows
  // (one wgmma row block; 16 rows per warp for mma.sync), 64-key blocks in
  // three cp.async slots (two programs per SM at d = 128): on the H200 at
  // 0.95-1.0x cuDNN's bytes per second, ahead of TMA rings (2-8 %) and of
  // two or four slots (bench/RESULTS.md, session 11).
  AttentionSchedule s{64, 64, 4, false, 3};
  if (headDim > 128)
    s.blockN = 32;
  // A paged cache's blocks are found through its page table: only the
  // tilegpu streams compute coordinates from loaded values (TMA rings on
  // sm_90a); tile-to-llvm loads such blocks without a ring.
  if (paged && target.tma)
    s.sm90 = Sm90Pipeline::TMA;
  return s;
}

std::vector<ParamSpec> attentionPagedDecodeParams() {
  std::vector<ParamSpec> params = attentionDecodeParams();
  params.push_back({.name = "page_size", .type = ParamSpec::Type::Int, .defaultValue = "64",
                    .help = "keys per page of the K/V cache (a multiple of block_n)", .min = 16,
                    .max = 1024, .powerOfTwo = true});
  return params;
}

std::vector<ParamSpec> attentionDecodeSizes() {
  using T = ParamSpec::Type;
  return {
      {.name = "batch", .type = T::Int, .defaultValue = "2", .help = "sequences", .min = 1},
      {.name = "kv_heads", .type = T::Int, .defaultValue = "2", .help = "K/V heads", .min = 1},
      {.name = "seq_q", .type = T::Int, .defaultValue = "1",
       .help = "new query tokens per sequence", .min = 1},
      {.name = "seq_k", .type = T::Int, .defaultValue = "300", .help = "cached keys", .min = 1},
      {.name = "splits", .type = T::Int, .defaultValue = "3",
       .help = "runs the keys are cut into (programs per K/V head)", .min = 1, .max = 1024},
      {.name = "amplitude", .type = T::Float, .defaultValue = "1",
       .help = "Q, K in [-a, a] (scores grow as a^2)"},
  };
}

} // namespace tilec::attention
