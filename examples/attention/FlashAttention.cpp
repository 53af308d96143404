//===- FlashAttention.cpp - the forward template and its reference --------===//

#include "FlashAttention.h"

#include "../ExampleSupport.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>

namespace tilec::attention {

using namespace tilec::dsl;

static constexpr double kInf = std::numeric_limits<double>::infinity();

double AttentionConfig::softmaxScale() const {
  return scale > 0 ? scale : 1.0 / std::sqrt(static_cast<double>(headDim));
}

int64_t AttentionConfig::tileColumns(int64_t headDim) {
  int64_t columns = 16;
  while (columns < headDim)
    columns *= 2;
  return columns;
}

TensorArg headDimTensor(KernelBuilder &k, const std::string &name, DType dtype, unsigned rank,
                        int64_t columns) {
  TensorArg t = k.tensor(name, dtype, rank);
  t.requireSize(rank - 1, columns);
  return t;
}

/// The powers of two that add up to `n` (positive), widest first.
static std::vector<int64_t> powerOfTwoParts(int64_t n) {
  std::vector<int64_t> parts;
  for (uint64_t width = std::bit_floor(static_cast<uint64_t>(n)); width; width /= 2)
    if (static_cast<uint64_t>(n) & width)
      parts.push_back(static_cast<int64_t>(width));
  return parts;
}

std::vector<int64_t> AttentionConfig::columnParts(int64_t headDim, bool split) {
  if (!split)
    return {tileColumns(headDim)};
  return powerOfTwoParts(std::max<int64_t>(16, (headDim + 15) / 16 * 16));
}

std::vector<int64_t> AttentionConfig::keyParts() const {
  if (blockN <= 0)
    return {blockN};
  return powerOfTwoParts(blockN);
}

KeyPartBlocks::KeyPartBlocks(const TensorArg &tensor, const std::vector<int64_t> &keyParts,
                             const std::vector<int64_t> &columnParts) {
  for (int64_t rows : keyParts)
    parts.emplace_back(tensor, Shape{1, rows}, columnParts);
}

std::vector<Tile> KeyPartBlocks::load(const Operand &head, const Operand &row, size_t part) const {
  return parts[part].load({head, row});
}

ColumnBlocks::ColumnBlocks(const TensorArg &tensor, const Shape &lead,
                           const std::vector<int64_t> &widths) {
  int64_t offset = 0;
  for (int64_t width : widths) {
    Shape block = lead;
    block.push_back(width);
    descs.push_back(tensor.desc(block));
    offsets.push_back(offset);
    offset += width;
  }
}

std::vector<Operand> ColumnBlocks::offsetsOf(size_t part, std::vector<Operand> at) const {
  at.push_back(offsets[part]);
  return at;
}

std::vector<Tile> ColumnBlocks::load(const std::vector<Operand> &at) const {
  std::vector<Tile> parts;
  for (size_t c = 0; c < descs.size(); ++c)
    parts.push_back(descs[c].load(offsetsOf(c, at)));
  return parts;
}

void ColumnBlocks::store(const std::vector<Operand> &at, const std::vector<Tile> &parts) const {
  for (size_t c = 0; c < descs.size(); ++c)
    descs[c].store(offsetsOf(c, at), parts[c]);
}

void ColumnBlocks::atomicAdd(const std::vector<Operand> &at,
                             const std::vector<Tile> &parts) const {
  for (size_t c = 0; c < descs.size(); ++c)
    descs[c].atomicAdd(offsetsOf(c, at), parts[c]);
}

std::vector<KeyLoopState> attendKeys(KernelBuilder &k, const AttentionConfig &cfg,
                                     const AttentionVariant &variant,
                                     const std::vector<QueryRows> &queries,
                                     const KeyBlocks &keys, Tile seqQ, Tile seqK,
                                     const KeyRange &relative, const KernelInputs *inputs,
                                     const BlockList *list) {
  const std::vector<int64_t> keyParts = cfg.keyParts();
  // O's column parts, and with rowSumsByDot the row sums' 8 columns after
  // them (V's are ones there: P·1).
  std::vector<int64_t> vParts = cfg.vParts();
  constexpr int64_t kSumColumns = 8;
  const bool sumsByDot = cfg.rowSumsByDot;
  if (sumsByDot)
    vParts.push_back(kSumColumns);
  const int64_t bn = cfg.blockN, groups = static_cast<int64_t>(queries.size());
  const bool overlap = cfg.overlap;
  const int64_t gm = queries.empty() ? 0 : queries[0].q[0].shape()[0];
  // The key parts' first keys within a block.
  std::vector<int64_t> keyOffsets;
  for (int64_t offset = 0; int64_t rows : keyParts) {
    keyOffsets.push_back(offset);
    offset += rows;
  }
  const size_t kParts = keyParts.size();
  // The loops run over the keys' rows in the tensors (so the loads' offsets
  // are the induction variable, which the rings stream); the variant sees
  // positions in the sequence.
  auto row = [&](Tile position) { return keys.base.valid() ? position + keys.base : position; };
  auto position = [&](Tile j) { return keys.base.valid() ? j - keys.base : j; };
  KeyRange range{row(relative.lo), row(relative.hi), row(relative.fullLo), row(relative.fullHi)};
  auto partRow = [&](Tile j, size_t part) { return keyOffsets[part] ? j + keyOffsets[part] : j; };

  // The loop state: per row group, the output's column parts, the running
  // max m, the row sum l, (overlapped) the previous block's P (one tile a
  // key part) and, with the rescale before the next P·V (rescaleBeforePV),
  // the alpha O still owes.
  struct Group {
    std::vector<Tile> acc;
    Tile m, l;
    std::vector<Tile> p;
    Tile alpha;
  };
  const bool rescaleBeforePV = overlap && cfg.rescaleBeforePV;
  const int64_t parts = static_cast<int64_t>(vParts.size());
  const int64_t pParts = overlap ? static_cast<int64_t>(kParts) : 0;
  const int64_t perGroup = parts + 2 + pParts + (rescaleBeforePV ? 1 : 0);
  auto group = [&](const std::vector<Tile> &state, int64_t g) {
    auto first = state.begin() + g * perGroup;
    return Group{{first, first + parts},
                 first[parts],
                 first[parts + 1],
                 {first + parts + 2, first + parts + 2 + pParts},
                 rescaleBeforePV ? first[parts + 2 + pParts] : Tile()};
  };
  auto append = [&](std::vector<Tile> &state, const Group &r) {
    state.insert(state.end(), r.acc.begin(), r.acc.end());
    state.insert(state.end(), {r.m, r.l});
    if (overlap)
      state.insert(state.end(), r.p.begin(), r.p.end());
    if (rescaleBeforePV)
      state.push_back(r.alpha);
  };
  // Kᵀ of block j: per key part, its head-dim column parts.
  auto transposedKeys = [&](Tile j) {
    std::vector<std::vector<Tile>> kT;
    for (size_t part = 0; part < kParts; ++part) {
      kT.push_back(keys.k(partRow(j, part), part));
      for (Tile &block : kT.back())
        block = block.t();
    }
    return kT;
  };
  // S = Q·Kᵀ of row group g, per key part over the head dim's column parts.
  auto scoresOf = [&](int64_t g, const std::vector<std::vector<Tile>> &kT) {
    std::vector<Tile> s;
    for (const std::vector<Tile> &part : kT) {
      s.push_back(dot(queries[g].q[0], part[0], 0.0));
      for (size_t c = 1; c < part.size(); ++c)
        s.back() = dot(queries[g].q[c], part[c], s.back());
    }
    return s;
  };
  // With sumsByDot, per key part the ones that stand for V's last column
  // part (made once, before the loops: on the GPU one shared buffer).
  std::vector<Tile> ones;
  if (sumsByDot)
    for (int64_t rows : keyParts)
      ones.push_back(k.full({rows, kSumColumns}, 1.0, cfg.dtype));
  // V of block j: per key part, its column parts.
  auto valuesOf = [&](Tile j) {
    std::vector<std::vector<Tile>> v;
    for (size_t part = 0; part < kParts; ++part) {
      v.push_back(keys.v(partRow(j, part), part));
      if (sumsByDot)
        v.back().push_back(ones[part]);
    }
    return v;
  };
  // acc · alpha per row (lazily: scaleRows, which a warp whose alphas are
  // all 1 skips on the GPU).
  auto rescaled = [&](const Tile &acc, const Tile &alpha) {
    return cfg.lazyRescale ? scaleRows(acc, alpha) : acc * alpha.col();
  };
  auto rescaleAll = [&](std::vector<Tile> &acc, const Tile &alpha) {
    for (Tile &part : acc)
      part = rescaled(part, alpha);
  };
  // acc[c] = acc[c]·alpha (where given) + Σ_parts p[part]·v[part][c],
  // chained along the keys.
  // The row sums' P·1 (sumsByDot) is issued first: its wgmma group, tiny,
  // is then waited for with S's, ahead of P·V's (which ptxas waits for
  // where the first of the later waits stands).
  std::vector<int64_t> pvOrder;
  if (sumsByDot)
    pvOrder.push_back(parts - 1);
  for (int64_t c = 0; c < parts - (sumsByDot ? 1 : 0); ++c)
    pvOrder.push_back(c);
  auto addPV = [&](std::vector<Tile> &acc, const std::vector<Tile> &p,
                   const std::vector<std::vector<Tile>> &v, std::optional<Tile> alpha) {
    for (int64_t c : pvOrder) {
      acc[c] = dot(p[0], v[0][c], alpha ? rescaled(acc[c], *alpha) : acc[c]);
      for (size_t part = 1; part < kParts; ++part)
        acc[c] = dot(p[part], v[part][c], acc[c]);
    }
  };

  // Part `part` of block j's scores of row group g with the variant
  // applied (its score modifier, and its mask where `masked`), and the
  // scale the softmax still applies to them.
  auto scored = [&](Tile s, Tile j, int64_t g, bool masked,
                    size_t part) -> std::pair<Tile, double> {
    const int64_t rows = keyParts[part];
    Tile first = partRow(position(j), part); // the part's first key position
    BlockContext ctx{k,    queries[g].positions, first + k.iota(rows), queries[g].head, seqQ,
                     seqK, inputs};
    double scale = cfg.softmaxScale();
    if (variant.scoreMod) {
      // With fma contraction: ALiBi's s·scale + slope·d, a bias table's
      // s·scale + b are one FFMA a score.
      ContractFloats contract(k);
      s = variant.scoreMod(s * scale, ctx);
      scale = 1.0;
    }
    if (masked) {
      // Keys past seq_k. Listed blocks compare the key's offset in the
      // block with the keys left (LLVM then remakes the offsets where used
      // instead of holding the keys' positions through the wait for S:
      // 32 registers a thread, spilled at d = 128 beside a document mask's
      // ids); ranges keep comparing positions (their PTX as before).
      Tile keep = list ? (k.iota(rows) < seqK - first).row() : (ctx.cols < seqK).row();
      if (variant.mask)
        keep = keep && variant.mask(ctx);
      s = where(keep, s, -kInf);
    }
    return {s, scale};
  };
  // P's parts added into the narrowest part's columns (each wider part
  // [gm, w] as [gm, w / n, n] summed over its middle dimension, which the
  // MMA layouts hold within each thread), so that the row sum exchanges
  // values between threads once rather than once a part (as
  // tile-decompose-online-softmax folds the scores for their maximum).
  const int64_t narrowest = keyParts.back();
  auto folded = [&](const std::vector<Tile> &p) {
    Tile sum = p.back();
    for (size_t part = 0; part + 1 < kParts; ++part)
      sum = reduce(Reduction::Sum, p[part].reshape({gm, keyParts[part] / narrowest, narrowest}), 1) +
            sum;
    return sum;
  };
  // Block j's online softmax for row group r from its scores in parts:
  // the new running max and sum, P (in f32) and alpha.
  struct Softmaxed {
    Tile mNew, l;
    std::vector<Tile> p;
    Tile alpha;
  };
  // With rowSumsAtEnd, l is each thread's share of its rows: P's columns
  // [gm, w] as [gm, w / 8, 4, 2] summed over the last and the second
  // dimension, which the MMA accumulator layouts hold in registers (a
  // thread's column pairs, and its 8-column groups), leaving [gm, 4] (the
  // four threads of a quad); rowSum folds those after the loops.
  constexpr int64_t kQuad = 4;
  const bool deferSums = !sumsByDot && cfg.rowSumsAtEnd && narrowest % (2 * kQuad) == 0;
  auto rowSums = [&](Tile p) {
    if (!deferSums)
      return rowSum(p);
    Tile pairs = reduce(Reduction::Sum, p.reshape({gm, narrowest / (2 * kQuad), kQuad, 2}), 3);
    return reduce(Reduction::Sum, pairs, 1);
  };
  auto softmaxOf = [&](const Group &r, const std::vector<Tile> &s, Tile j, int64_t g,
                       bool masked) {
    // (The scale the softmax still applies is the same for every part.)
    std::vector<Tile> x;
    double scale = 1.0;
    for (size_t part = 0; part < kParts; ++part)
      std::tie(x.emplace_back(), scale) = scored(s[part], j, g, masked, part);
    SoftmaxParts sm = onlineSoftmax(x, r.m, scale, cfg.lazyRescale ? kLazyRescaleThreshold : 0);
    // (With sumsByDot l is O's last column part; r.l is carried unchanged.)
    Tile l = sumsByDot ? r.l : r.l * (deferSums ? sm.alpha.col() : sm.alpha) + rowSums(folded(sm.p));
    return Softmaxed{sm.mNew, l, sm.p, sm.alpha};
  };
  auto converted = [&](std::vector<Tile> p) {
    for (Tile &part : p)
      part = part.to(cfg.dtype);
    return p;
  };

  // One step of the loop over key blocks: S = Q·Kᵀ, the variant, the online
  // softmax, and O += P·V with the running state rescaled, per row group.
  auto step = [&](bool masked) {
    return [&, masked](Tile j, std::vector<Tile> state) -> std::vector<Tile> {
      std::vector<std::vector<Tile>> kT = transposedKeys(j);
      std::vector<std::vector<Tile>> scores;
      for (int64_t g = 0; g < groups; ++g)
        scores.push_back(scoresOf(g, kT));
      std::vector<std::vector<Tile>> vBlock = valuesOf(j);
      std::vector<Tile> next;
      for (int64_t g = 0; g < groups; ++g) {
        Group r = group(state, g);
        // The row sum first: P in f32 is then dead before P·V (in bf16/f16)
        // starts (fewer live registers; 128x64 tiles at d = 128 spill less).
        Softmaxed sm = softmaxOf(r, scores[g], j, g, masked);
        std::vector<Tile> p = converted(sm.p);
        addPV(r.acc, p, vBlock, sm.alpha);
        append(next, {r.acc, sm.mNew, sm.l, {}});
      }
      return next;
    };
  };

  // [lo, b) masked, [b, c) unmasked, [c, hi) masked; b and c clamped so the
  // three loops never overlap whatever the variant's bounds.
  Tile b = min(max(range.fullLo, range.lo), range.hi);
  Tile c = min(max(range.fullHi, b), range.hi);
  std::vector<Tile> state;
  for (int64_t g = 0; g < groups; ++g) {
    Group start;
    for (int64_t width : vParts)
      start.acc.push_back(k.zeros({gm, width}, DType::F32));
    start.m = k.full({gm}, -kInf, DType::F32);
    start.l = deferSums ? k.zeros({gm, kQuad}, DType::F32) : k.zeros({gm}, DType::F32);
    if (overlap) // P of the previous block: none yet
      for (int64_t rows : keyParts)
        start.p.push_back(k.zeros({gm, rows}, cfg.dtype));
    if (rescaleBeforePV) // nothing owed yet
      start.alpha = k.full({gm}, 1.0, DType::F32);
    append(state, start);
  }
  Tile from = range.lo; // where the three loops start
  auto loops = [&](auto step) {
    state = aroundUnmasked(k, from, b, c, range.hi, bn, state,
                           [&](bool masked) -> LoopStep { return step(masked); });
  };
  if (!overlap) {
    if (list)
      state = overListedBlocks(k, *list, bn, row(k.constant(0, DType::I32)), state,
                               [&](bool masked) -> LoopStep { return step(masked); });
    else
      loops(step);
  } else {
    // Software-pipelined: each step issues Q·Kᵀ of its block beside P·V of
    // the block visited before it (the first step's P is 0). With
    // rescaleBeforePV (FlashAttention-3's order) O takes the alpha it owes
    // just before that P·V is issued, so no instruction of the softmax
    // that follows touches O while the P·V runs.
    // (The alpha O owes is paid before the step's Q·Kᵀ is issued, so that
    // a wgmma wait ptxas puts before the multiplies, C7517, waits for
    // nothing in flight: between Q·Kᵀ and P·V it waited for Q·Kᵀ.)
    auto payAlpha = [&](Group &r) {
      if (rescaleBeforePV)
        rescaleAll(r.acc, r.alpha);
    };
    auto addPreviousPV = [&](Group &r, const std::vector<std::vector<Tile>> &v) {
      addPV(r.acc, r.p, v, std::nullopt);
    };
    // Block j's online softmax for row group r from its scores `s`: the
    // running max and sum, O rescaled (`rescale`; or its alpha kept for
    // the next P·V), P for the next step's P·V.
    auto softmaxed = [&](Group r, const std::vector<Tile> &s, Tile j, int64_t g, bool masked,
                         bool rescale) {
      Softmaxed sm = softmaxOf(r, s, j, g, masked);
      if (rescale && !rescaleBeforePV)
        rescaleAll(r.acc, sm.alpha);
      return Group{r.acc, sm.mNew, sm.l, converted(sm.p), sm.alpha};
    };
    auto overlapped = [&](bool masked) -> PipelinedStep {
      return [&, masked](Tile j, Tile previous, std::vector<Tile> st) -> std::vector<Tile> {
        std::vector<Group> rows;
        for (int64_t g = 0; g < groups; ++g) {
          rows.push_back(group(st, g));
          payAlpha(rows[g]);
        }
        std::vector<std::vector<Tile>> kT = transposedKeys(j);
        std::vector<std::vector<Tile>> scores;
        std::vector<Tile> next;
        for (int64_t g = 0; g < groups; ++g)
          scores.push_back(scoresOf(g, kT));
        std::vector<std::vector<Tile>> vPrev = valuesOf(previous);
        for (int64_t g = 0; g < groups; ++g)
          addPreviousPV(rows[g], vPrev);
        for (int64_t g = 0; g < groups; ++g)
          append(next, softmaxed(rows[g], scores[g], j, g, masked, /*rescale=*/true));
        return next;
      };
    };
    // The first block alone (peelFirst): its scores and softmax, no P·V
    // (there is none before it) and no V block read; masked, whichever
    // loop it would have been in; O is still 0 (no rescale).
    auto firstAlone = [&](Tile j, std::vector<Tile> st) -> std::vector<Tile> {
      std::vector<std::vector<Tile>> kT = transposedKeys(j);
      std::vector<std::vector<Tile>> scores;
      std::vector<Tile> next;
      for (int64_t g = 0; g < groups; ++g)
        scores.push_back(scoresOf(g, kT));
      for (int64_t g = 0; g < groups; ++g)
        append(next, softmaxed(group(st, g), scores[g], j, g, /*masked=*/true, /*rescale=*/false));
      return next;
    };
    // The last visited block's P·V (block lo when none was: P = 0).
    Tile last;
    if (list) {
      state = overListedBlocksPipelined(k, *list, bn, row(k.constant(0, DType::I32)), state,
                                        overlapped, last);
    } else {
      if (cfg.peelFirst) {
        // One step (none for an empty range), then the three loops from
        // the next block on: [lo + bn, b) masked, [b, c) not, [c, hi).
        from = min(range.lo + bn, range.hi);
        state = k.forRange(range.lo, from, bn, state, firstAlone);
        b = max(b, from);
        c = max(c, b);
      }
      loops([&](bool masked) -> LoopStep {
        return [&, masked](Tile j, std::vector<Tile> st) {
          return overlapped(masked)(j, max(j - bn, k.constant(0, DType::I32)), st);
        };
      });
      Tile blocks = max((range.hi - range.lo + (bn - 1)) / bn, k.constant(1, DType::I32));
      last = range.lo + (blocks - 1) * bn;
    }
    auto lastPV = [&](Tile j, const std::vector<Tile> &st) {
      std::vector<std::vector<Tile>> vLast = valuesOf(j);
      std::vector<Tile> next;
      for (int64_t g = 0; g < groups; ++g) {
        Group r = group(st, g);
        payAlpha(r);
        addPreviousPV(r, vLast);
        append(next, r);
      }
      return next;
    };
    if (cfg.lastValuesInLoop && !list)
      state = k.forRange(last, last + bn, bn, state, lastPV);
    else
      state = lastPV(last, state);
  }
  std::vector<KeyLoopState> result;
  for (int64_t g = 0; g < groups; ++g) {
    Group r = group(state, g);
    if (sumsByDot) {
      // Every column of P·1 is the row sum: their max is it exactly.
      Tile sums = r.acc.back();
      r.acc.pop_back();
      r.l = rowMax(sums);
    } else if (deferSums) {
      r.l = rowSum(r.l);
    }
    result.push_back({r.acc, r.m, r.l});
  }
  return result;
}

Tile normalizeRows(Tile acc, Tile l) { return acc * (1.0 / where(l == 0.0, 1.0, l)).col(); }

std::vector<Tile> convertedParts(const std::vector<Tile> &parts, DType dtype) {
  std::vector<Tile> converted;
  for (const Tile &part : parts)
    converted.push_back(part.to(dtype));
  return converted;
}

std::vector<Tile> normalizedParts(const KeyLoopState &state, DType dtype) {
  std::vector<Tile> parts;
  for (const Tile &acc : state.acc)
    parts.push_back(normalizeRows(acc, state.l).to(dtype));
  return parts;
}

int64_t rowGroupRows(KernelBuilder &k, const AttentionConfig &cfg) {
  const int64_t groups = cfg.rowGroups, bm = cfg.blockM;
  if (groups >= 1 && bm % groups == 0 && (bm / groups) % 16 == 0)
    return bm / groups;
  k.error(Where::current(), "row_groups = " + std::to_string(groups) + " must split block_m = " +
                                std::to_string(bm) + " into groups of a multiple of 16 rows");
  return 0;
}

BlockList listedBlocks(KernelBuilder &k, const TensorArg &counts, const TensorArg &blocks,
                       Tile head, Tile heads, Tile queryBlock) {
  // The lists' row: one per query head, per batch or for all (the rows
  // divide the heads; consecutive heads share a row). Reads outside the
  // lists (a launch whose lists do not fit its sizes) give no blocks, and
  // listed indices are clamped into the lists' keys.
  Tile zero = k.constant(0, DType::I32), keyBlocks = blocks.dim(2), rows = counts.dim(0);
  Tile row = head / max(heads / max(rows, 1), 1);
  Tile known = rows > 0 && heads % max(rows, 1) == 0 && row < rows && queryBlock < counts.dim(1) &&
               counts.dim(2) >= 2 && row < blocks.dim(0) && queryBlock < blocks.dim(1);
  head = row;
  Tile countRow = counts.base() + head.to(DType::I64) * counts.stride(0) +
                  queryBlock.to(DType::I64) * counts.stride(1);
  Tile partial = load(countRow, known, 0), full = load(countRow + counts.stride(2), known, 0);
  partial = min(max(partial, zero), keyBlocks);
  full = min(max(full, zero), keyBlocks - partial);
  Tile listRow = blocks.base() + head.to(DType::I64) * blocks.stride(0) +
                 queryBlock.to(DType::I64) * blocks.stride(1);
  Tile stride = blocks.stride(2);
  return BlockList{[=](Tile t) {
                     Tile b = load(listRow + t.to(DType::I64) * stride, known, 0);
                     return max(min(b, keyBlocks - 1), zero);
                   },
                   partial, keyBlocks - full, keyBlocks};
}

void buildFlashAttention(KernelBuilder &k, const AttentionConfig &cfg,
                         const AttentionVariant &variant) {
  const int64_t bm = cfg.blockM, bn = cfg.blockN;
  // The program's rows in `groups` independent groups of `gm` rows that share
  // each K and V block: one group's softmax runs while the next group's
  // Q·Kᵀ (or the previous one's P·V) is still on the tensor cores.
  const int64_t groups = cfg.rowGroups, gm = rowGroupRows(k, cfg);
  if (!gm)
    return;
  TensorArg q = headDimTensor(k, "q", cfg.dtype, 3, cfg.headDim),
            key = headDimTensor(k, "k", cfg.dtype, 3, cfg.headDim);
  TensorArg v = headDimTensor(k, "v", cfg.dtype, 3, cfg.valueDim()),
            o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim());
  TensorArg lse = k.tensor("lse", DType::F32, 2);
  TensorArg counts, blocks;
  if (variant.blockMask) {
    counts = k.tensor("block_counts", DType::I32, 3);
    blocks = k.tensor("blocks", DType::I32, 3);
    if (kMaskBlock % bm || kMaskBlock % bn)
      k.error(Where::current(), "a block-mask variant's block_m and block_n must divide " +
                                    std::to_string(kMaskBlock) + " (the mask's blocks); got " +
                                    std::to_string(bm) + " and " + std::to_string(bn));
  }
  if (cfg.keyParts().size() > 1 && bn % 16)
    k.error(Where::current(), "block_n = " + std::to_string(bn) +
                                  " must be a power of two or a multiple of 16 (a key block "
                                  "that is not a power of two is taken in power-of-two parts "
                                  "of at least 16 keys)");
  if (cfg.splitColumns) // its 32- and 16-column tiles as wgmma B operands too
    k.narrowWgmmaOperands();
  KernelInputs inputs = declareInputs(k, variant, q.dim(0));
  ColumnBlocks qBlocks(q, {1, gm}, cfg.qkParts());
  KeyPartBlocks kBlocks(key, cfg.keyParts(), cfg.qkParts()),
      vBlocks(v, cfg.keyParts(), cfg.vParts());
  ColumnBlocks oBlocks(o, {1, gm}, cfg.vParts());
  TensorDesc lseBlocks = lse.desc({1, gm});

  Tile seqQ = q.dim(1), seqK = key.dim(1);
  // Query blocks in reverse launch order: with causal masking the last rows
  // see the most keys, so the longest programs start first and the short
  // ones fill the tail of the grid (no effect on equal-work variants).
  Tile head = k.programId(1);
  Tile row0 = (k.numPrograms(0) - 1 - k.programId(0)) * bm;
  Tile kvHead = cfg.group == 1 ? head : head / cfg.group;
  std::vector<Tile> groupRow0;
  std::vector<QueryRows> queries;
  for (int64_t g = 0; g < groups; ++g) {
    groupRow0.push_back(row0 + g * gm);
    Tile rows = groupRow0[g] + k.iota(gm);
    queries.push_back({qBlocks.load({head, groupRow0[g]}), rows, head}); // resident
  }

  RangeContext rangeCtx{k, row0, bm, bn, seqQ, seqK};
  KeyRange range = keyRangeOf(variant, rangeCtx);
  if (range.growsWithRows && !variant.blockMask)
    k.longestFirst(0); // row0 counts down from the last query block
  KeyBlocks keys{[&](Tile j, size_t part) { return kBlocks.load(kvHead, j, part); },
                 [&](Tile j, size_t part) { return vBlocks.load(kvHead, j, part); }};
  std::optional<BlockList> list;
  if (variant.blockMask)
    list = listedBlocks(k, counts, blocks, head, q.dim(0), row0 / kMaskBlock);
  std::vector<KeyLoopState> state = attendKeys(k, cfg, variant, queries, keys, seqQ, seqK, range,
                                               &inputs, list ? &*list : nullptr);

  // O = acc / l (a row that saw nothing has acc = 0 and l = 0: output 0),
  // lse = (m + log2 l) · ln 2 (-inf for such a row).
  for (int64_t g = 0; g < groups; ++g) {
    const KeyLoopState &s = state[g];
    oBlocks.store({head, groupRow0[g]}, normalizedParts(s, cfg.dtype));
    lseBlocks.store({head, groupRow0[g]}, (s.m + log2(s.l)) * M_LN2);
  }
}

//===----------------------------------------------------------------------===//
// Key ranges and masks
//===----------------------------------------------------------------------===//

KeyRange allKeys(const RangeContext &ctx) {
  Tile zero = ctx.k.constant(0, DType::I32);
  return {zero, ctx.seqK, zero, ctx.seqK / ctx.blockN * ctx.blockN, false, /*monotone=*/true};
}

KeyRange maskedKeys(const RangeContext &ctx) {
  Tile zero = ctx.k.constant(0, DType::I32);
  return {zero, ctx.seqK, zero, zero, false, /*monotone=*/true};
}

KeyRange keyRangeOf(const AttentionVariant &variant, const RangeContext &ctx) {
  if (variant.keyRange)
    return variant.keyRange(ctx);
  return variant.mask ? maskedKeys(ctx) : allKeys(ctx);
}

std::vector<Tile> aroundUnmasked(KernelBuilder &k, Tile lo, Tile b, Tile c, Tile hi,
                                 Operand step, std::vector<Tile> state,
                                 const std::function<LoopStep(bool masked)> &body, Where where) {
  state = k.forRange(lo, b, step, state, body(true), where);
  state = k.forRange(b, c, step, state, body(false), where);
  return k.forRange(c, hi, step, state, body(true), where);
}

KeyRange causalKeys(const RangeContext &ctx, std::optional<int64_t> window) {
  KernelBuilder &k = ctx.k;
  const int64_t bn = ctx.blockN;
  Tile zero = k.constant(0, DType::I32);
  Tile diag = ctx.seqK - ctx.seqQ;
  Tile firstRow = ctx.row0, lastRow = ctx.row0 + (ctx.blockM - 1);
  // Visited: keys up to the last row's diagonal, from the first row's window start.
  Tile hi = max(min(ctx.seqK, lastRow + diag + 1), zero);
  Tile lo = zero, fullLo = zero;
  if (window) {
    lo = max(firstRow + diag - *window, zero) / bn * bn;
    // Unmasked from the first block that starts inside every row's window.
    fullLo = (max(lastRow + diag - *window, zero) + (bn - 1)) / bn * bn;
  }
  // Unmasked up to the last block that ends on or before every row's diagonal.
  Tile fullHi = min(max(firstRow + diag + 1, zero) / bn * bn, ctx.seqK / bn * bn);
  return {lo, hi, fullLo, fullHi, /*growsWithRows=*/!window, /*monotone=*/true};
}

KeyRange prefixCausalKeys(const RangeContext &ctx, int64_t prefix) {
  KeyRange r = causalKeys(ctx);
  Tile prefixEnd = min(ctx.k.constant(prefix, DType::I32), ctx.seqK);
  r.hi = max(r.hi, prefixEnd);
  r.fullHi = max(r.fullHi, prefixEnd / ctx.blockN * ctx.blockN);
  return r;
}

Tile causalMask(const BlockContext &ctx, std::optional<int64_t> window) {
  Tile diag = ctx.seqK - ctx.seqQ;
  Tile rowLimit = (ctx.rows + diag).col(), col = ctx.cols.row();
  Tile keep = col <= rowLimit;
  if (window)
    keep = keep && (col >= rowLimit - *window);
  return keep;
}

bool causalMaskRef(int64_t row, int64_t col, int64_t seqQ, int64_t seqK,
                   std::optional<int64_t> window) {
  int64_t limit = row + seqK - seqQ;
  return col <= limit && (!window || col >= limit - *window);
}

//===----------------------------------------------------------------------===//
// Parameters and the CPU run
//===----------------------------------------------------------------------===//

std::vector<ParamSpec> attentionParams() {
  using T = ParamSpec::Type;
  return {
      {.name = "head_dim", .type = T::Int, .defaultValue = "64",
       .help = "d: columns of Q and K (and of V and O unless head_dim_v), 8 to 256", .min = 8,
       .max = 256, .multipleOf = 8},
      {.name = "head_dim_v", .type = T::Int, .defaultValue = "0",
       .help = "d of V and O (DeepSeek-style MLA: 192 beside 128; 0: head_dim)", .min = 0,
       .max = 256, .multipleOf = 8},
      {.name = "block_m", .type = T::Int, .defaultValue = "0",
       .help = "query rows per program (0: by head_dim)", .min = 0, .max = 256,
       .powerOfTwo = true},
      {.name = "block_n", .type = T::Int, .defaultValue = "0",
       .help = "keys per loop step (0: by head_dim)", .min = 0, .max = 256, .powerOfTwo = true},
      {.name = "dtype", .type = T::Choice, .defaultValue = "bf16", .help = "Q, K, V, O type",
       .choices = {"bf16", "f16"}},
      {.name = "row_groups", .type = T::Int, .defaultValue = "0",
       .help = "independent row groups per program sharing each K/V block, whose softmax "
               "overlaps the other groups' MMAs (0: by target and head_dim)",
       .min = 0, .max = 4},
      {.name = "split_columns", .type = T::Choice, .defaultValue = "auto",
       .help = "a head dim that is not a power of two as power-of-two column tiles side by "
               "side (96: 64 + 32) instead of one padded tile (128) (auto: on sm_90a where the "
               "padded tile would be 256 wide and every column tile is 64 or more: 192, "
               "(192, 128))",
       .choices = {"auto", "on", "off"}},
      {.name = "overlap", .type = T::Choice, .defaultValue = "auto",
       .help = "issue each step's Q·Kᵀ with the previous block's P·V, so the softmax runs "
               "while P·V is on the tensor cores (auto: by target and head_dim)",
       .choices = {"auto", "on", "off"}},
      {.name = "last_values", .type = T::Choice, .defaultValue = "auto",
       .help = "with overlap: the last key block's P·V after the loops is a loop of one step "
               "(ring: with --warp-specialize its V block comes through the key loops' rings; "
               "without, a ring of its own) or reads its V block into a buffer of its own (own) "
               "(auto: ring where block_n is not a power of two; not over a block mask's lists)",
       .choices = {"auto", "ring", "own"}},
      {.name = "peel_first", .type = T::Choice, .defaultValue = "auto",
       .help = "with overlap: run the first key block's step on its own before the loop (no "
               "P·V of zeros, no V block read for it), as FlashAttention-3 does (auto: by "
               "target and head_dim)",
       .choices = {"auto", "on", "off"}},
      {.name = "lazy_rescale", .type = T::Choice, .defaultValue = "auto",
       .help = "a row's running max (log2 units) moves only when a key block's exceeds it "
               "by more than 8 (P stays below 2^8; the same output up to rounding), and on the "
               "GPU a warp whose rows all kept theirs skips the rescale of O (FlashAttention-4's) "
               "(auto: on with the sm_90a schedule for d > 128, measured up to 10 % faster)",
       .choices = {"auto", "on", "off"}},
      {.name = "row_sums", .type = T::Choice, .defaultValue = "auto",
       .help = "the softmax's row sums added across a row's threads every key block (step) "
               "or kept per thread and added once after the key loops (end), as "
               "FlashAttention-3 does, or on the tensor cores as P times a ones column "
               "block beside P·V (dot; measured 0.93-1.02x the default, not taken) (auto: end "
               "on the sm_90a TMA schedules, measured -2 to +5 %)",
       .choices = {"auto", "step", "end", "dot"}},
      {.name = "rescale_at", .type = T::Choice, .defaultValue = "auto",
       .help = "with overlap, when O takes a key block's alpha: right after the softmax that "
               "makes it (softmax), or just before the next block's P·V is issued (next_pv, "
               "FlashAttention-3's order: the softmax then runs beside that P·V without "
               "touching O) (auto: next_pv where d = 192 or (192, 128) takes column tiles on "
               "sm_90a, measured +1 to +11 % and mostly +4-6 %; softmax elsewhere)",
       .choices = {"auto", "softmax", "next_pv"}},
  };
}

std::vector<ParamSpec> attentionSizes() {
  using T = ParamSpec::Type;
  return {
      {.name = "batch", .type = T::Int, .defaultValue = "1", .help = "batch", .min = 1},
      {.name = "heads", .type = T::Int, .defaultValue = "2", .help = "query heads", .min = 1},
      {.name = "seq_q", .type = T::Int, .defaultValue = "100", .help = "query length", .min = 1},
      {.name = "seq_k", .type = T::Int, .defaultValue = "100", .help = "key length", .min = 1},
      {.name = "amplitude", .type = T::Float, .defaultValue = "1",
       .help = "Q, K in [-a, a] (scores grow as a^2)"},
  };
}

AttentionSchedule defaultSchedule(int64_t headDim, bool heavyScores, const TargetInfo &target) {
  // d <= 64 on wgmma: two warpgroups on 128x64 tiles (one row group), K/V
  // rings filled by TMA from the consumers: +2-9 % over 4 warps on every
  // row of the grid (bench/RESULTS.md, session 8).
  // On these sm_90a schedules the row sums are added across threads once
  // after the key loops (row_sums=end): -2 to +5 % at d = 64 to 256 on an
  // H100 (bench/RESULTS.md, session 46).
  if (headDim <= 64 && target.tma && !heavyScores) {
    AttentionSchedule s{128, 64, 8, false, 2, /*rowGroups=*/1, Sm90Pipeline::TMA};
    s.rowSumsAtEnd = true;
    return s;
  }
  if (headDim <= 64)
    return heavyScores ? AttentionSchedule{128, 32, 4, false} : AttentionSchedule{128, 64, 4, false};
  if (headDim <= 128 && target.tma && !heavyScores) {
    // d = 128 on wgmma: 128x128 tiles on two consumer warpgroups, Q in
    // shared memory, TMA rings from a producer warpgroup, ping-pong, and
    // each step's Q·Kᵀ issued beside the previous block's P·V (overlap):
    // 616 / 589 TFLOP/s at N = 16k (1.00x / 1.05x cuDNN), +4-13 % over the
    // 4-warp schedule below from N = 4k; at N = 1k it is 18-23 % slower
    // (one program per SM and no persistent grid yet; bench/RESULTS.md,
    // session 8).
    AttentionSchedule s{128, 128, 8, true, 2, /*rowGroups=*/1, Sm90Pipeline::WarpSpecialized};
    s.overlap = true;
    // The first key block's step on its own (no P·V of zeros, no V read
    // for it): d = 128 causal +2-7 %, dense +1-2 % at N = 1k-16k; d = 96
    // within +-2 % (H100, bench/RESULTS.md, session 38). Not at d = 256 or
    // (192, 128), where it measured 4-12 % slower at N = 1k.
    s.peelFirst = true;
    s.rowSumsAtEnd = true;
    return s;
  }
  if (headDim <= 128) {
    // wgmma (sm_90a) reads K, V and Q from shared memory without fragments
    // in registers: 128x64 tiles fit without spills and are the fastest
    // (bench/RESULTS.md, session 4). Two slots keep two programs per SM;
    // two row groups of 64 overlap one group's softmax with the other's
    // MMAs (+3-6 %; at d = 64 they cost 1-4 %).
    if (target.wgmma && !heavyScores)
      return AttentionSchedule{128, 64, 4, true, 2, /*rowGroups=*/2};
    // mma.sync: 32 query rows per warp with Q in shared memory
    // (FlashAttention-2's shape); the heavy variants keep 64 rows per
    // program. Three K/V slots: +11-13 % causal, +1 % otherwise.
    return heavyScores ? AttentionSchedule{64, 32, 4, true, 3}
                       : AttentionSchedule{128, 32, 4, true, 3};
  }
  // d = 256 on wgmma: 128x64 tiles on two consumer warpgroups (64 rows
  // each, the O accumulator alone is 128 registers a thread), Q in shared
  // memory, K/V rings filled by TMA from a producer warpgroup, ping-pong:
  // 2.2x the mma.sync-sized tiles below (bench/RESULTS.md, session 8);
  // with Q·Kᵀ beside the previous block's P·V (overlap; it spilled in
  // session 8, no more): +2-9 % more (session 24). The heavy
  // variants stay below: ALiBi's bias goes through three 32 KiB
  // shared-memory exchanges that do not fit beside the rings.
  if (target.tma && !heavyScores) {
    AttentionSchedule s{128, 64, 8, true, 2, /*rowGroups=*/1, Sm90Pipeline::WarpSpecialized};
    s.overlap = true;
    s.rowSumsAtEnd = true;
    // The lazy rescale skips O's multiplies (128 a thread at d = 256) in
    // most steps: with row_sums=end +3-10 % at d = 256, -1 to +5 % at
    // d = 192 (H100, session 46); (192, 128) not measured.
    s.lazyRescale = true;
    return s;
  }
  return {64, 16, 4, false};
}

bool persistentByDefault(int64_t headDim, int64_t headDimV, bool heavyScores,
                         const TargetInfo &target, const AttentionVariant &variant, bool maskToo) {
  // Measured on the H200 (bench/RESULTS.md, session 29, once its loop was
  // the default's): the persistent d = 128 forward without a mask is 1.12x
  // the default at N = 1k, 1.06x at 4k and 1.00x at 16k (its producer
  // loads the next tile's Q and K/V during this one's epilogue); the head
  // dims padded to 128 columns (80-112) take it too. d = 256 (0.82-0.98x;
  // causal 0.83-0.95x from 2k, session 32) stays one program per tile.
  // Causal at d = 128 (H100, session 31), once tile-persistent-grid took
  // the heads in sections (0.95-0.98x before, all heads of a round at once
  // missing L2): 1.14-1.24x at N = 1k, 1.07x at 2k, 1.00x at 4k, 1.05x at
  // 8k, 0.95x at 16k (still 1.09x cuDNN there). Causal at d = 80 and 96
  // with tiles claimed from a counter and Q on two slots
  // (tileCounterByDefault, tileSlotsByDefault; H100, session 36): d = 96
  // 1.07-1.10x at 1k-2k, 1.01x at 4k, 1.07x at 16k (static, session 34:
  // 0.75x at 1k), d = 80 1.08x / 1.14x / 1.04x / 1.03x at 1k / 2k / 4k /
  // 16k. Causal d = 112 with the counter and Q on two slots, its first key
  // block peeled (H100, session 38, two calls): 1.16-1.21x at N = 1k,
  // 1.08-1.09x at 2k, 1.06-1.08x at 4k, 0.99-1.04x at 8k and 16k (in
  // session 31's form without them: 1.10x at 1k, 0.96-0.99x from 2k). A
  // mask's grid runs where measured (d = 80, 96, 112, 128) and where the
  // caller's variant allows it (maskToo).
  const int64_t valueDim = headDimV ? headDimV : headDim;
  const int64_t columns = AttentionConfig::tileColumns(std::max(headDim, valueDim));
  const bool maskMeasured = headDim == valueDim && (headDim == 128 || headDim == 112 ||
                                                    headDim == 96 || headDim == 80);
  return target.tma && !heavyScores && columns > 64 && columns <= 128 &&
         (!variant.mask || (maskToo && maskMeasured)) && !variant.scoreMod && !variant.blockMask;
}

ParamSpec seqScheduleParam() {
  return {.name = "seq_schedule", .type = ParamSpec::Type::Choice, .defaultValue = "auto",
          .help = "long: the schedule measured fastest from N = 4k where it differs from "
                  "auto's (d = 64 without a mask or score modifier: 256-row tiles on 16 "
                  "warps, +5 % at N = 8k-16k, -7 % at 1k); elsewhere the same as auto",
          .choices = {"auto", "long"}};
}

bool longSequenceSchedule(AttentionSchedule &schedule, int64_t headDim, int64_t group,
                          const TargetInfo &target, const AttentionVariant &variant) {
  // d = 64 dense on the H100 (bench/RESULTS.md, sessions 41 and 42, three
  // alternating runs each): 256 x 64 tiles on four warpgroups (each K/V
  // block read once for 256 query rows, one program an SM, 124 registers)
  // over the default's 128 x 64 on two: 0.93 / 0.97 / 1.01-1.02 /
  // 1.04-1.05 / 1.05-1.06x at N = 1k / 2k / 4k / 8k / 16k. Causal lost at
  // every length (0.80-1.00x: 256-row tiles compute twice the diagonal's
  // masked half), so only the variants without a mask take it.
  bool plain = !variant.mask && !variant.scoreMod && !variant.blockMask && !variant.keyRange &&
               variant.inputs.empty() && group == 1;
  if (headDim != 64 || !plain || !target.tma || schedule.sm90 != Sm90Pipeline::TMA ||
      schedule.blockM != 128 || schedule.warps != 8)
    return false;
  schedule.blockM = 256;
  schedule.warps = 16;
  schedule.rowGroups = 1;
  return true;
}

bool tileCounterByDefault(const AttentionVariant &variant) {
  // Measured (bench/RESULTS.md, session 36): the causal d = 128 forward
  // with tiles claimed from a counter is 1.07x the static order at N = 1k,
  // 1.01x at 4k and 1.02x at 16k on the H200 (programs that drew short
  // tiles take more), 1.01-1.02x from 2k on an H100; without a mask
  // 1.02x / 0.99x / 0.99x, so it keeps the static order. Causal d = 96 runs
  // persistent only with it (and Q on two slots, tileSlotsByDefault), as
  // does d = 80: every masked forward that persistentByDefault takes.
  return bool(variant.mask);
}

bool fusedBackwardPersistentByDefault(const AttentionConfig &cfg, const TargetInfo &target,
                                      const AttentionVariant &variant, bool maskToo) {
  // Causal d = 64 on the H200 (bench/RESULTS.md, session 43, two
  // alternating runs): with tiles from a counter (the key blocks near the
  // start see the most queries; programs that drew short tiles take more)
  // 1.07x / 1.03x / 1.02x the one-program-a-tile kernel at N = 1k / 4k /
  // 16k; in the static order 0.87x / 0.96x / 0.91x. Dense (counter or
  // not) 0.95-0.99x, so it keeps one program a tile, as do the head dims
  // not measured (d = 128 persistent spills 44-48 bytes).
  return target.tma && maskToo && variant.mask && !variant.scoreMod && !variant.blockMask &&
         variant.inputs.empty() && cfg.group == 1 && cfg.headDim == 64 && cfg.valueDim() == 64;
}

int64_t tileSlotsByDefault(int64_t headDim, int64_t headDimV, const AttentionVariant &variant) {
  // Causal d = 96 persistent with the counter (H100, session 36): 1.05x /
  // 1.05x / 1.00x / 1.05x one program a tile at N = 1k / 2k / 4k / 16k, and
  // with Q on two slots 1.09x / 1.10x / 1.01x / 1.07x; d = 80 in the same
  // form 1.08x / 1.14x / 1.04x / 1.03x, d = 112 see persistentByDefault.
  // Without a mask (d = 80, 96) two slots are within noise (+0-2 %). At
  // d = 128 (O staged in the last V block's slot, tilegpu-tma-stores)
  // causal with two slots was 1.06-1.10x at N = 1k and 0.99-1.02x from 2k
  // (H100, session 37); with the first key block peeled 1.05x at 1k and
  // 1.00-1.01x from 2k in one call, 0.94x and 0.98-1.00x in the next
  // (session 38, calls B and C): within the 1k rows' spread, not taken.
  // Of the masked forwards persistentByDefault takes, those narrower than
  // 128.
  const int64_t valueDim = headDimV ? headDimV : headDim;
  return variant.mask && std::max(headDim, valueDim) < 128 ? 2 : 1;
}

bool splitColumnsByDefault(int64_t headDim, int64_t headDimV, bool heavyScores,
                           const TargetInfo &target) {
  // Measured on the H200 (bench/RESULTS.md, session 27): at d = 192 and
  // (192, 128) the 128 + 64 column tiles are 3-9 % faster than one tile
  // padded to 256. At d = 80 and 96 the 64 + 16 and 64 + 32 tiles were 3-11 %
  // slower than a 128-column tile while Q·Kᵀ waited for its first part before
  // issuing the second; chained (no wait between them) they are 2-17 % faster
  // (H100, session 34). So split where padding would reach 256 columns and
  // every part is at least 64 wide, and where a 128-column tile would pad
  // 64 + 16 or 64 + 32 (the other widths under 128 are not measured).
  if (!target.wgmma || heavyScores)
    return false;
  std::vector<int64_t> qk = AttentionConfig::columnParts(headDim, /*split=*/true),
                       v = AttentionConfig::columnParts(headDimV, /*split=*/true);
  if (qk.size() == 1 && v.size() == 1)
    return false;
  if (AttentionConfig::tileColumns(std::max(headDim, headDimV)) <= 128) {
    auto measured = [](const std::vector<int64_t> &parts) {
      return parts.size() == 1 || (parts.size() == 2 && parts[0] == 64);
    };
    return measured(qk) && measured(v);
  }
  auto wide = [](const std::vector<int64_t> &parts) {
    return std::all_of(parts.begin(), parts.end(), [](int64_t w) { return w >= 64; });
  };
  return wide(qk) && wide(v);
}

void scheduleSplitColumns(AttentionSchedule &schedule, int64_t headDim, int64_t headDimV,
                          bool plainScores) {
  // Tiles that pad to 128 columns (d = 72-96) keep their schedule: split
  // was measured with it (session 34).
  if (AttentionConfig::tileColumns(std::max(headDim, headDimV)) <= 128)
    return;
  // On the H100 (bench/RESULTS.md, session 33), with Q·Kᵀ's two column
  // tiles chained (no wait between them): Q in registers (48 a thread at
  // d = 192; the wgmma reads only K from shared memory) is 1.03-1.11x Q in
  // shared memory from N = 4k; and where V is at most 128 wide, 128-key
  // blocks (Q's buffer, free once Q is in registers, then holds the last
  // block's V: 209 KiB) are 1.06-1.09x the 64-key ones. With a mask or a
  // score modifier those spill (causal 12 bytes in its masked loop, ALiBi
  // 40; at 240 registers, setmaxnreg's most), so they keep 64-key blocks.
  schedule.qInShared = false;
  if (plainScores && AttentionConfig::tileColumns(headDimV) <= 128)
    schedule.blockN = 128;
  // O takes each block's alpha just before the next block's P·V
  // (rescale_at=next_pv): at d = 192 +1 to +11 % on every row of the grid,
  // dense and causal, 0.96 / 1.04 / 1.09x and 0.96 / 1.04 / 1.15x cuDNN at
  // N = 1k / 4k / 16k (H100, bench/RESULTS.md, session 48, calls K and M);
  // at (192, 128), three runs of session 49: +4-6 % on causal 1k and 4k and
  // dense 16k, -2 to +4 % at dense 1k and 4k. At d = 128 it lost 4-7 % at
  // 1k (dense), and d = 256 keeps the rescale after the softmax (mixed).
  if (headDim == headDimV || (headDim == 192 && headDimV == 128))
    schedule.rescaleBeforePV = true;
}

AttentionConfig tileConfigFrom(const Params &params, const AttentionSchedule &schedule) {
  AttentionConfig cfg;
  cfg.headDim = params.getInt("head_dim");
  cfg.headDimV = params.getInt("head_dim_v");
  cfg.blockM = params.getInt("block_m") ? params.getInt("block_m") : schedule.blockM;
  cfg.blockN = params.getInt("block_n") ? params.getInt("block_n") : schedule.blockN;
  cfg.dtype = params.get("dtype") == "f16" ? DType::F16 : DType::BF16;
  cfg.dpBesideS = schedule.dpBesideS;
  cfg.groupsInOneLoop = schedule.groupsInOneLoop;
  cfg.statistics = schedule.statistics;
  cfg.oneConsumerBarrier = schedule.oneConsumerBarrier;
  cfg.queriesAsM = schedule.queriesAsM;
  cfg.dqOrder = schedule.dqOrder;
  cfg.lseByFma = schedule.lseByFma;
  if (params.all().count("split_columns")) {
    const std::string &split = params.get("split_columns");
    cfg.splitColumns = split == "auto" ? schedule.splitColumns : split == "on";
  }
  return cfg;
}

int64_t scheduleHeadDim(const Params &params) {
  const int64_t d = params.getInt("head_dim"), dv = params.getInt("head_dim_v");
  return AttentionConfig::tileColumns(std::max(d, dv));
}

std::vector<ParamSpec> withoutParams(std::vector<ParamSpec> params,
                                     std::initializer_list<std::string_view> names) {
  std::erase_if(params, [&](const ParamSpec &p) {
    return std::find(names.begin(), names.end(), p.name) != names.end();
  });
  return params;
}

std::vector<ParamSpec> withoutForwardLoopParams(std::vector<ParamSpec> params) {
  return withoutParams(std::move(params), {"row_groups", "overlap", "peel_first", "last_values",
                                           "row_sums", "lazy_rescale", "rescale_at"});
}

AttentionConfig configFrom(const Params &params, const AttentionSchedule &schedule) {
  AttentionConfig cfg = tileConfigFrom(params, schedule);
  cfg.rowGroups = params.getInt("row_groups") ? params.getInt("row_groups") : schedule.rowGroups;
  const std::string &overlap = params.get("overlap");
  cfg.overlap = overlap == "auto" ? schedule.overlap : overlap == "on";
  const std::string &peel = params.get("peel_first");
  cfg.peelFirst = cfg.overlap && (peel == "auto" ? schedule.peelFirst : peel == "on");
  const std::string &lastValues = params.get("last_values");
  cfg.lastValuesInLoop = cfg.overlap && (lastValues == "auto" ? cfg.keyParts().size() > 1
                                                              : lastValues == "ring");
  const std::string &rowSums = params.get("row_sums"), &lazy = params.get("lazy_rescale");
  cfg.rowSumsAtEnd = rowSums == "auto" ? schedule.rowSumsAtEnd : rowSums == "end";
  cfg.rowSumsByDot = rowSums == "dot";
  const std::string &rescaleAt = params.get("rescale_at");
  cfg.rescaleBeforePV =
      rescaleAt == "auto" ? schedule.rescaleBeforePV : rescaleAt == "next_pv";
  cfg.lazyRescale = lazy == "auto" ? schedule.lazyRescale : lazy == "on";
  return cfg;
}

RunPlan planAttention(const AttentionConfig &cfg, const AttentionVariant &variant,
                      const Params &sizes, uint64_t seed) {
  const int64_t batch = sizes.getInt("batch"), heads = sizes.getInt("heads");
  const int64_t seqQ = sizes.getInt("seq_q"), seqK = sizes.getInt("seq_k");
  const int64_t d = cfg.headDim, dv = cfg.valueDim();
  const int64_t kvHeads = std::max<int64_t>(1, heads / cfg.group);
  const int64_t bhQ = batch * heads, bhK = batch * kvHeads;
  const double amplitude = sizes.getFloat("amplitude");
  std::mt19937_64 rng(seed);

  RunPlan plan;
  plan.memory = {examples::randomBuffer("q", cfg.dtype, bhQ * seqQ * d, rng, amplitude),
                 examples::randomBuffer("k", cfg.dtype, bhK * seqK * d, rng, amplitude),
                 examples::randomBuffer("v", cfg.dtype, bhK * seqK * dv, rng),
                 examples::outputBuffer("o", cfg.dtype, bhQ * seqQ * dv),
                 examples::outputBuffer("lse", DType::F32, bhQ * seqQ)};
  auto tensor3 = [&](int buffer, int64_t bh, int64_t seq, int64_t columns) {
    return TensorBinding{buffer, {bh, seq, columns}, {seq * columns, columns, 1}};
  };
  plan.args = {tensor3(0, bhQ, seqQ, d), tensor3(1, bhK, seqK, d), tensor3(2, bhK, seqK, dv),
               tensor3(3, bhQ, seqQ, dv), TensorBinding{4, {bhQ, seqQ}, {seqQ, 1}}};
  std::vector<InputValues> inputs = inputValues(variant, {batch, heads, seqQ, seqK}, rng);
  plan.grid = {examples::ceilDiv(seqQ, cfg.blockM), bhQ, 1};

  // The reference, in double precision from the same (rounded) inputs.
  ReferenceAttention ref{bhQ, seqQ, seqK, d, cfg.group, cfg.scale, &variant};
  ref.headDimV = dv;
  ref.headsPerBatch = heads;
  ref.inputs = &inputs;
  if (variant.blockMask)
    bindBlockLists(plan, hostBlockMask(ref), bhQ, seqQ, seqK);
  bindInputs(plan, inputs);
  std::vector<double> out, lseOut;
  ref.forward(plan.memory[0].data, plan.memory[1].data, plan.memory[2].data, out, lseOut);
  plan.expected = {{3, out}, {4, lseOut}};
  plan.tolerance = 2e-2; // bf16 P and O
  return plan;
}

} // namespace tilec::attention
