//===- FlashAttentionBackward.cpp - gradients from the forward's variant --===//

#include "FlashAttention.h"

#include "../ExampleSupport.h"

#include <cmath>
#include <limits>

namespace tilec::attention {

using namespace tilec::dsl;

static constexpr double kInf = std::numeric_limits<double>::infinity();

namespace {

/// One (query block, key block) pair recomputed from the forward's
/// statistics and its raw scores `s` = q·kᵀ: P = exp(s − lse) with the
/// variant applied as in the forward,
/// the score modifier's slope f'(scale·q·k) when there is a modifier, and
/// the mask when the pair is masked.
struct Recomputed {
  Tile p, slope, keep;
};

Recomputed recompute(const AttentionConfig &cfg, const AttentionVariant &variant, Tile s,
                     Tile lse2, const BlockContext &ctx, bool masked, bool maskRows) {
  Recomputed r;
  // log2 units; in unmasked steps less the row's lse already (lseByFma),
  // masked ones mask first (the mask beside lse's broadcast spilled 4-8
  // bytes in some kernels).
  const bool lseFirst = !masked && cfg.lseByFma;
  Tile logits;
  {
    ContractFloats contract(ctx.k); // as in the forward
    if (variant.scoreMod) {
      Tile scaled = s * cfg.softmaxScale();
      Tile modified = variant.scoreMod(scaled, ctx);
      r.slope = derivative(modified, scaled);
      logits = modified * M_LOG2E;
    } else {
      logits = s * (cfg.softmaxScale() * M_LOG2E);
    }
    if (lseFirst)
      logits = logits - lse2.col();
  }
  if (masked) {
    r.keep = (ctx.cols < ctx.seqK).row();
    if (maskRows)
      r.keep = r.keep && (ctx.rows < ctx.seqQ).col();
    if (variant.mask)
      r.keep = r.keep && variant.mask(ctx);
    logits = where(r.keep, logits, -kInf);
  }
  if (!lseFirst)
    logits = logits - lse2.col();
  r.p = exp2(logits);
  return r;
}

/// dS = P ∘ (dP − delta) ∘ f': the gradient of the scaled raw scores,
/// up to the softmax scale (applied once to dK and dQ at the end).
Tile scoreGradient(const Recomputed &r, Tile dP, Tile delta) {
  Tile ds = r.p * (dP - delta.col());
  if (r.slope.valid()) {
    ds = ds * r.slope;
    if (r.keep.valid()) // the slope may be anything where the mask dropped the score
      ds = where(r.keep, ds, 0.0);
  }
  return ds;
}

/// Σ_c a_c·b_cᵀ over the head dim's column parts, into one accumulator.
Tile contractParts(const std::vector<Tile> &a, const std::vector<Tile> &b) {
  Tile sum = dot(a[0], b[0].t(), 0.0);
  for (size_t c = 1; c < a.size(); ++c)
    sum = dot(a[c], b[c].t(), sum);
  return sum;
}

/// acc_c + a·b_c for each column part c.
std::vector<Tile> dotParts(Tile a, const std::vector<Tile> &b, std::vector<Tile> acc) {
  for (size_t c = 0; c < b.size(); ++c)
    acc[c] = dot(a, b[c], acc[c]);
  return acc;
}

/// Each column part times `scale`.
std::vector<Tile> scaledParts(std::vector<Tile> parts, double scale) {
  for (Tile &part : parts)
    part = part * scale;
  return parts;
}

/// a·b_c for each column part c.
std::vector<Tile> dotsOfParts(Tile a, const std::vector<Tile> &b) {
  std::vector<Tile> parts;
  for (const Tile &part : b)
    parts.push_back(dot(a, part, 0.0));
  return parts;
}

} // namespace

Tile log2Lse(Tile lse) { return where(lse == -kInf, kInf, lse * M_LOG2E); }

int64_t backwardStatRows(int64_t seqQ) { return (seqQ + 3) / 4 * 4; }

void buildAttentionBackwardPrep(KernelBuilder &k, const AttentionConfig &cfg) {
  const int64_t dv = cfg.vColumns(), bm = cfg.blockM;
  TensorArg o = headDimTensor(k, "o", cfg.dtype, 3, cfg.valueDim()),
            dO = headDimTensor(k, "do", cfg.dtype, 3, cfg.valueDim());
  TensorArg lse = k.tensor("lse", DType::F32, 2), delta = k.tensor("delta", DType::F32, 2);
  TensorArg lseLog2 = k.tensor("lse_log2", DType::F32, 2);
  Tile head = k.programId(1), row0 = k.programId(0) * bm;
  Tile oBlock = o.desc({1, bm, dv}).load({head, row0, 0}).to(DType::F32);
  Tile dOBlock = dO.desc({1, bm, dv}).load({head, row0, 0}).to(DType::F32);
  delta.desc({1, bm}).store({head, row0}, rowSum(oBlock * dOBlock));
  lseLog2.desc({1, bm}).store({head, row0}, log2Lse(lse.desc({1, bm}).load({head, row0})));
}

BackwardInputs backwardInputs(KernelBuilder &k, const AttentionConfig &cfg) {
  return {headDimTensor(k, "q", cfg.dtype, 3, cfg.headDim),
          headDimTensor(k, "k", cfg.dtype, 3, cfg.headDim),
          headDimTensor(k, "v", cfg.dtype, 3, cfg.valueDim()),
          headDimTensor(k, "do", cfg.dtype, 3, cfg.valueDim()),
          k.tensor("lse_log2", DType::F32, 2),
          k.tensor("delta", DType::F32, 2)};
}

BackwardSequence denseSequence(KernelBuilder &k, const BackwardInputs &in) {
  Tile zero = k.constant(0, DType::I32);
  return {zero, zero, zero, in.q.dim(1), in.key.dim(1), /*packed=*/false};
}

namespace {
/// A block-mask variant's block_counts and blocks parameters (declared by
/// declareBlockMask; `seq` points at them).
struct BlockMaskArgs {
  TensorArg counts, blocks;
};
} // namespace

/// Declares a block-mask variant's lists into `lists` and points `seq` at
/// them; the kernel's steps must divide the mask's blocks.
static void declareBlockMask(KernelBuilder &k, const AttentionConfig &cfg,
                             const AttentionVariant &variant, BlockMaskArgs &lists,
                             BackwardSequence &seq) {
  if (!variant.blockMask)
    return;
  lists = {k.tensor("block_counts", DType::I32, 3), k.tensor("blocks", DType::I32, 3)};
  seq.blockCounts = &lists.counts;
  seq.blocks = &lists.blocks;
  if (kMaskBlock % cfg.blockM || kMaskBlock % cfg.blockN)
    k.error(Where::current(), "a block-mask variant's block_m and block_n must divide " +
                                  std::to_string(kMaskBlock) + " (the mask's blocks); got " +
                                  std::to_string(cfg.blockM) + " and " +
                                  std::to_string(cfg.blockN));
}

KeyBlockGradients backwardKeyBlock(KernelBuilder &k, const AttentionConfig &cfg,
                                   const AttentionVariant &variant, const BackwardInputs &in,
                                   const BackwardSequence &seq, Tile kvHead, Tile col0,
                                   const ColumnBlocks *dqAcc) {
  const std::vector<int64_t> qkParts = cfg.qkParts(), vParts = cfg.vParts();
  const int64_t bm = cfg.blockM, bn = cfg.blockN;
  ColumnBlocks qBlocks(in.q, {1, bm}, qkParts), dOBlocks(in.dO, {1, bm}, vParts);
  TensorDesc lseBlocks = in.lse2.desc({1, bm}), deltaBlocks = in.delta.desc({1, bm});
  const Tile seqQ = seq.seqQ, seqK = seq.seqK;

  std::vector<Tile> kBlock =
      ColumnBlocks(in.key, {1, bn}, qkParts).load({kvHead, seq.kFirst + col0});
  std::vector<Tile> vBlock = ColumnBlocks(in.v, {1, bn}, vParts).load({kvHead, seq.kFirst + col0});
  Tile cols = col0 + k.iota(bn);

  // The query blocks whose key range meets this key block, [first, end), and
  // the run of them that needs no mask, [fullFirst, fullEnd): a scan over
  // the variant's key ranges (scalar work, one step per query block; with
  // a block mask, its lists instead).
  Tile zero = k.constant(0, DType::I32), blocksQ = (seqQ + (bm - 1)) / bm;
  // Programs past a packed sequence's keys (the grid fits the longest) do nothing.
  auto noKeysPastTheSequence = [&](Tile hi, Tile lo) {
    return seq.packed ? where(col0 < seqK, hi, lo) : hi;
  };
  Tile lo, hi, b, c;
  const bool seesEveryKey = !variant.keyRange && !variant.mask && !seq.blocks;
  if (seesEveryKey && cfg.group == 1 && !seq.packed) {
    // Every query block sees every key: all are visited, and the full ones
    // (all but a ragged last) need no mask unless this key block is the
    // ragged one. In closed form, from the sizes alone: no scan, and bounds
    // cheap enough to be made again rather than kept across the loops (the
    // fused d = 128 kernel spilled them). Not for GQA's or packed
    // sequences' loops: there ptxas allocated worse with it (GQA's pairs
    // on sm_90a 76 spill bytes, packed on mma.sync 4-12), so they scan.
    Tile keysFull = col0 + bn <= seqK;
    lo = zero;
    hi = noKeysPastTheSequence(blocksQ * bm, lo);
    b = where(keysFull, zero, hi);
    c = where(keysFull, seqQ / bm * bm, hi);
  } else if (cfg.bisectQueryRanges && !seq.blocks &&
             // (the range asked here only for its flag: its ops are dead)
             keyRangeOf(variant, {k, zero, bm, bn, seqQ, seqK}).monotone) {
    // Bounds that never decrease from one query block to the next (causal,
    // windows, prefix-LM): the visiting blocks and the unmasked ones are
    // runs whose ends bisection finds, halving an interval of [0, blocksQ]
    // for the first block where a bound passes this key block
    // (query_ranges=bisect; the scan below is ~52 SASS instructions a query
    // block, against ~600 of a key loop step that visits one, in the causal
    // d = 128 fused kernel; bisection 9 steps a bound at N = 16k). One
    // loop a bound: the four in one loop (8 values) spilled in the
    // producer's 24 registers.
    const Tile end = col0 + bn;
    // Whether query block i's range has passed bound s (the order below).
    auto passes = [&](Tile i, int s) {
      KeyRange r = keyRangeOf(variant, {k, i * bm, bm, bn, seqQ, seqK});
      return s == 0   ? r.hi > col0
             : s == 1 ? r.lo >= end
             : s == 2 ? r.fullHi >= end
                      : r.fullLo > col0;
    };
    // ceil(log2(blocksQ + 1)) steps: the bit length of blocksQ.
    Tile steps = zero;
    for (int bit = 0; bit < 31; ++bit)
      steps = steps + where(blocksQ >= (int64_t{1} << bit), 1, 0);
    std::vector<Tile> bounds;
    for (int s = 0; s < 4; ++s) {
      std::vector<Tile> found = k.forRange(zero, steps, 1, {zero, blocksQ}, [&](Tile, std::vector<Tile> st) {
        Tile from = st[0], to = st[1], mid = (from + to) / 2;
        Tile open = from < to, pass = passes(mid, s);
        return std::vector<Tile>{where(open && !pass, mid + 1, from), where(open && pass, mid, to)};
      });
      bounds.insert(bounds.end(), found.begin(), found.end());
    }
    // The first query blocks whose range reaches past this key block's
    // start (first), starts past its end (stop), is unmasked through its
    // end (fullFirst), and is masked from its start (fullStop).
    Tile first = bounds[0], stop = bounds[2], fullFirst = bounds[4], fullStop = bounds[6];
    Tile visited = first < stop;
    lo = where(visited, first, blocksQ) * bm;
    hi = noKeysPastTheSequence(where(visited, stop, zero) * bm, lo);
    Tile runFirst = max(first, fullFirst), runEnd = min(min(stop, fullStop), seqQ / bm);
    Tile run = runFirst < runEnd;
    b = min(max(where(run, runFirst, blocksQ) * bm, lo), hi);
    c = min(max(where(run, runEnd, blocksQ) * bm, b), hi);
  } else {
    if (seq.blocks)
      blocksQ = zero;
    std::vector<Tile> scan = k.forRange(
        0, blocksQ, 1, {blocksQ, zero, blocksQ, blocksQ}, [&](Tile i, std::vector<Tile> st) {
          Tile row0 = i * bm;
          KeyRange r = keyRangeOf(variant, {k, row0, bm, bn, seqQ, seqK});
          Tile visit = r.lo < col0 + bn && r.hi > col0;
          Tile full = visit && r.fullLo <= col0 && col0 + bn <= r.fullHi && row0 + bm <= seqQ;
          Tile startRun = full && st[2] == blocksQ, extendRun = full && st[3] == i;
          return std::vector<Tile>{where(visit, min(st[0], i), st[0]),
                                   where(visit, i + 1, st[1]), where(startRun, i, st[2]),
                                   where(startRun || extendRun, i + 1, st[3])};
        });
    lo = scan[0] * bm;
    hi = noKeysPastTheSequence(scan[1] * bm, lo);
    b = min(max(scan[2] * bm, lo), hi);
    c = min(max(scan[3] * bm, b), hi);
  }

  // One step: dK, dV += the query rows from `r` (rows of Q and dO, so
  // they stream as blocks at the loop's induction variable) of query head
  // `head`; the variant sees positions in the sequence.
  // The state: dK's column parts, then dV's.
  const size_t kParts = qkParts.size();
  auto gradients = [&](std::vector<Tile> dK, const std::vector<Tile> &dV) {
    dK.insert(dK.end(), dV.begin(), dV.end());
    return dK;
  };
  auto dKOf = [&](const std::vector<Tile> &st) {
    return std::vector<Tile>(st.begin(), st.begin() + kParts);
  };
  auto dVOf = [&](const std::vector<Tile> &st) {
    return std::vector<Tile>(st.begin() + kParts, st.end());
  };
  auto pairStep = [&](bool masked, Tile head, Tile r, std::vector<Tile> st) -> std::vector<Tile> {
    Tile i = r - seq.qFirst;
    std::vector<Tile> qBlock = qBlocks.load({head, r}), dOBlock = dOBlocks.load({head, r});
    BlockContext ctx{k, i + k.iota(bm), cols, head, seqQ, seqK, seq.inputs};
    // A row statistic (lse or delta) of the step's queries; rows past the
    // sequence read statistics that are not theirs, `outside` instead.
    auto statistic = [&](const TensorDesc &blocks, double outside) {
      Tile x = blocks.load({head, seq.statFirst + i});
      return masked && seq.packed ? where(ctx.rows < seqQ, x, outside) : x;
    };
    Tile lse2, dlt; // at the top of the step unless read where used
    if (variant.scoreMod || cfg.queriesAsM || cfg.statistics == StatisticsRead::StepTop) {
      lse2 = statistic(lseBlocks, kInf);
      dlt = statistic(deltaBlocks, 0.0);
    } else if (cfg.statistics == StatisticsRead::LseAtTop) {
      lse2 = statistic(lseBlocks, kInf);
    }
    if (variant.scoreMod) {
      // The modifier is written on [queries, keys] score tiles: it
      // sees the transposed scores sᵀᵀ (the same registers, relabeled),
      // and Pᵀ, dSᵀ come back, relabeled again, as the A operands of
      // dV and dK straight from the registers. With dpBesideS both
      // dots that need only the loads come first (on wgmma they run
      // while the scores become P).
      Tile sT = contractParts(kBlock, qBlock);
      Tile dPT = cfg.dpBesideS ? contractParts(vBlock, dOBlock) : Tile();
      Recomputed rc = recompute(cfg, variant, sT.t(), lse2, ctx, masked, /*maskRows=*/true);
      std::vector<Tile> dV = dotParts(rc.p.t().to(cfg.dtype), dOBlock, dVOf(st));
      if (!dPT.valid())
        dPT = contractParts(vBlock, dOBlock);
      Tile dsT = scoreGradient(rc, dPT.t(), dlt).t().to(cfg.dtype);
      std::vector<Tile> dK = dotParts(dsT, qBlock, dKOf(st));
      if (dqAcc)
        dqAcc->atomicAdd({head, r}, dotsOfParts(dsT.t(), kBlock));
      return gradients(dK, dV);
    }
    // dQ's share and dK's dots from dS's two forms: dSᵀ [keys, queries]
    // (dK's A operand) and dS (dQ's), in the order cfg.dqOrder says, then
    // dQ's rows to dq_acc.
    auto dKAndDQ = [&](Tile dsForDK, Tile dsForDQ, std::vector<Tile> dV) {
      const DqOrder order = cfg.dqOrder;
      std::vector<Tile> dQ;
      if (dqAcc && order != DqOrder::AfterDK)
        dQ = dotsOfParts(dsForDQ, kBlock);
      if (dqAcc && order == DqOrder::BeforeDK)
        dqAcc->atomicAdd({head, r}, dQ);
      std::vector<Tile> dK = dotParts(dsForDK, qBlock, dKOf(st));
      if (dqAcc && order == DqOrder::AfterDK)
        dQ = dotsOfParts(dsForDQ, kBlock);
      if (dqAcc && order != DqOrder::BeforeDK)
        dqAcc->atomicAdd({head, r}, dQ);
      return gradients(dK, dV);
    };
    if (cfg.queriesAsM) {
      // [queries, keys], as in the forward: the statistics are the rows'
      // (two registers a thread per 64 rows, not a broadcast over the
      // columns), dS is dQ's A operand straight from the registers, and
      // Pᵀ, dSᵀ reach dV's and dK's dots through shared memory.
      Tile s = contractParts(qBlock, kBlock);
      Tile dP = cfg.dpBesideS ? contractParts(dOBlock, vBlock) : Tile();
      Recomputed rc = recompute(cfg, variant, s, lse2, ctx, masked, /*maskRows=*/true);
      std::vector<Tile> dV = dotParts(rc.p.to(cfg.dtype).t(), dOBlock, dVOf(st));
      if (!dP.valid())
        dP = contractParts(dOBlock, vBlock);
      Tile ds = scoreGradient(rc, dP, dlt).to(cfg.dtype);
      return dKAndDQ(ds.t(), ds, dV);
    }
    // Transposed, [keys, queries]: Pᵀ and dSᵀ are the A operands of
    // dV += Pᵀ·dO and dK += dSᵀ·Q straight from the registers, and Q and
    // dO only feed B operands, so they stream through shared memory.
    Tile logitsT = contractParts(kBlock, qBlock); // log2 units, less lse (as in recompute)
    Tile dPT = cfg.dpBesideS ? contractParts(vBlock, dOBlock) : Tile(); // before P
    // With StatisticsRead::AtUse each statistic is read where it is used:
    // broadcast over the queries (16 registers each at 64 queries) it
    // would stay live across the dots.
    auto lessLse = [&](Tile logits) {
      if (cfg.statistics == StatisticsRead::AtUse)
        lse2 = statistic(lseBlocks, kInf);
      return logits - lse2.row();
    };
    const bool lseFirst = !masked && cfg.lseByFma;
    {
      ContractFloats contract(k);
      logitsT = logitsT * (cfg.softmaxScale() * M_LOG2E);
      if (lseFirst)
        logitsT = lessLse(logitsT);
    }
    if (masked) {
      Tile keepT = (cols < seqK).col() && (ctx.rows < seqQ).row();
      // Built as [keys, queries] where the variant can (a block mask's
      // kernels keep the transpose: 4 spill bytes otherwise, sm_90a).
      if (variant.maskTransposed && !variant.blockMask)
        keepT = keepT && variant.maskTransposed(ctx);
      else if (variant.mask)
        keepT = keepT && variant.mask(ctx).t();
      logitsT = where(keepT, logitsT, -kInf);
    }
    if (!lseFirst)
      logitsT = lessLse(logitsT);
    if (cfg.statistics == StatisticsRead::LseAtTop)
      dlt = statistic(deltaBlocks, 0.0); // its load beside the exp2s
    Tile pT = exp2(logitsT);
    std::vector<Tile> dV = dotParts(pT.to(cfg.dtype), dOBlock, dVOf(st));
    if (!dPT.valid())
      dPT = contractParts(vBlock, dOBlock);
    if (cfg.statistics == StatisticsRead::AtUse)
      dlt = statistic(deltaBlocks, 0.0);
    Tile dsT = (pT * (dPT - dlt.row())).to(cfg.dtype);
    return dKAndDQ(dsT, dsT.t(), dV);
  };
  Tile first = seq.qFirst;
  // dK, dV over the query blocks of query head `head`.
  auto overQueries = [&](Tile head, std::vector<Tile> grads) {
    auto step = [&](bool masked) -> LoopStep {
      return [&, masked](Tile r, std::vector<Tile> st) { return pairStep(masked, head, r, st); };
    };
    if (seq.blocks) // the query blocks the block mask lists for this key block
      return overListedBlocks(
          k, listedBlocks(k, *seq.blockCounts, *seq.blocks, head, in.q.dim(0), col0 / kMaskBlock),
          bm, seq.qFirst, grads, step);
    Tile rowLo = first + lo, rowB = first + b, rowC = first + c, rowHi = first + hi;
    return aroundUnmasked(k, rowLo, rowB, rowC, rowHi, bm, grads, step);
  };
  // GQA in one loop: over pairs t = query block · group + g (the key
  // range does not depend on the head), so each of the three loops streams
  // the group's heads through one ring.
  auto overPairs = [&](std::vector<Tile> grads) {
    const int64_t group = cfg.group;
    auto step = [&](bool masked) -> LoopStep {
      return [&, masked](Tile t, std::vector<Tile> st) {
        return pairStep(masked, kvHead * group + t % group, first + t / group * bm, st);
      };
    };
    Tile pairLo = lo / bm * group, pairB = b / bm * group, pairC = c / bm * group;
    Tile pairHi = hi / bm * group;
    return aroundUnmasked(k, pairLo, pairB, pairC, pairHi, 1, grads, step);
  };
  std::vector<Tile> grads;
  for (int64_t width : qkParts)
    grads.push_back(k.zeros({bn, width}, DType::F32));
  for (int64_t width : vParts)
    grads.push_back(k.zeros({bn, width}, DType::F32));
  if (cfg.group == 1)
    grads = overQueries(kvHead, grads);
  else if (cfg.groupsInOneLoop && !seq.blocks)
    grads = overPairs(grads);
  else // GQA: summed over the query heads of the group, in order
    grads = k.forRange(0, cfg.group, 1, grads, [&](Tile g, std::vector<Tile> st) {
      return overQueries(kvHead * cfg.group + g, st);
    });
  return {scaledParts(dKOf(grads), cfg.softmaxScale()), dVOf(grads)};
}

std::vector<Tile> backwardQueryBlock(KernelBuilder &k, const AttentionConfig &cfg,
                                     const AttentionVariant &variant, const BackwardInputs &in,
                                     const BackwardSequence &seq, Tile head, Tile row0) {
  const std::vector<int64_t> qkParts = cfg.qkParts(), vParts = cfg.vParts();
  const int64_t bm = cfg.blockM, bn = cfg.blockN;
  ColumnBlocks kBlocks(in.key, {1, bn}, qkParts), vBlocks(in.v, {1, bn}, vParts);
  const Tile seqQ = seq.seqQ, seqK = seq.seqK;
  Tile kvHead = cfg.group == 1 ? head : head / cfg.group;
  std::vector<Tile> qBlock = ColumnBlocks(in.q, {1, bm}, qkParts).load({head, seq.qFirst + row0});
  std::vector<Tile> dOBlock = ColumnBlocks(in.dO, {1, bm}, vParts).load({head, seq.qFirst + row0});
  Tile lse2 = in.lse2.desc({1, bm}).load({head, seq.statFirst + row0});
  Tile dlt = in.delta.desc({1, bm}).load({head, seq.statFirst + row0});
  Tile rows = row0 + k.iota(bm);

  // The loops run over the rows of K and V (blocks at the induction
  // variable stream); the variant sees positions in the sequence.
  auto step = [&](bool masked) {
    return [&, masked](Tile r, std::vector<Tile> st) -> std::vector<Tile> {
      std::vector<Tile> kBlock = kBlocks.load({kvHead, r}), vBlock = vBlocks.load({kvHead, r});
      BlockContext ctx{k, rows, r - seq.kFirst + k.iota(bn), head, seqQ, seqK, seq.inputs};
      // With dpBesideS both dots first: on wgmma dP runs while the scores
      // become P.
      Tile s = contractParts(qBlock, kBlock);
      Tile dP = cfg.dpBesideS ? contractParts(dOBlock, vBlock) : Tile();
      Recomputed rc = recompute(cfg, variant, s, lse2, ctx, masked,
                                /*maskRows=*/false); // rows past seq_q are not stored
      if (!dP.valid())
        dP = contractParts(dOBlock, vBlock);
      Tile ds = scoreGradient(rc, dP, dlt);
      return dotParts(ds.to(cfg.dtype), kBlock, st);
    };
  };
  std::vector<Tile> acc;
  for (int64_t width : qkParts)
    acc.push_back(k.zeros({bm, width}, DType::F32));
  if (seq.blocks) { // the key blocks the block mask lists
    acc = overListedBlocks(k, listedBlocks(k, *seq.blockCounts, *seq.blocks, head,
                                           in.q.dim(0), row0 / kMaskBlock),
                           bn, seq.kFirst, acc, [&](bool masked) -> LoopStep { return step(masked); });
    return scaledParts(acc, cfg.softmaxScale());
  }
  RangeContext rangeCtx{k, row0, bm, bn, seqQ, seqK};
  KeyRange range = keyRangeOf(variant, rangeCtx);
  if (seq.packed) // programs past the sequence's queries (the grid fits the longest) do nothing
    range.hi = where(row0 < seqQ, range.hi, range.lo);
  Tile b = min(max(range.fullLo, range.lo), range.hi);
  Tile c = min(max(range.fullHi, b), range.hi);
  Tile first = seq.kFirst;
  Tile colLo = first + range.lo, colB = first + b, colC = first + c, colHi = first + range.hi;
  acc = aroundUnmasked(k, colLo, colB, colC, colHi, bn, acc,
                       [&](bool masked) -> LoopStep { return step(masked); });
  return scaledParts(acc, cfg.softmaxScale());
}

/// dq = dq_acc · scale in the inputs' type and dq_acc = 0, for the block of
/// `bm` rows of `head` from `row0`.
static void convertDQBlock(KernelBuilder &k, const AttentionConfig &cfg, const TensorArg &acc,
                           const TensorArg &dq, Tile head, Tile row0, int64_t bm) {
  const int64_t d = cfg.qkColumns();
  TensorDesc accBlocks = acc.desc({1, bm, d});
  // The fused kernel adds dS·K unscaled: one multiply an element here,
  // once, rather than one an element and step there (FlashAttention-3
  // scales in its postprocess too).
  Tile block = accBlocks.load({head, row0, 0});
  dq.desc({1, bm, d}).store({head, row0, 0}, (block * cfg.softmaxScale()).to(cfg.dtype));
  accBlocks.store({head, row0, 0}, k.zeros({bm, d}, DType::F32)); // ready for the next backward
}

/// The dK/dV kernel, and with `fuseDQ` its dQ shares into dq_acc.
static void buildKeyBlockKernel(KernelBuilder &k, const AttentionConfig &cfg,
                                const AttentionVariant &variant, bool fuseDQ) {
  const int64_t bn = cfg.blockN;
  if (cfg.splitColumns)
    k.narrowWgmmaOperands();
  if (fuseDQ && cfg.oneConsumerBarrier)
    k.splitStagingBarriers();
  BackwardInputs in = backwardInputs(k, cfg);
  TensorArg dk = headDimTensor(k, "dk", cfg.dtype, 3, cfg.headDim),
            dv = headDimTensor(k, "dv", cfg.dtype, 3, cfg.valueDim());
  std::optional<ColumnBlocks> dqAcc;
  std::optional<TensorArg> accArg, dqArg, arrivals;
  if (fuseDQ) {
    accArg = headDimTensor(k, "dq_acc", DType::F32, 3, cfg.headDim);
    dqAcc = ColumnBlocks(*accArg, {1, cfg.blockM}, cfg.qkParts());
    if (cfg.dqByLastProgram) {
      dqArg = headDimTensor(k, "dq", cfg.dtype, 3, cfg.headDim);
      arrivals = k.tensor("dq_arrivals", DType::I32, 1);
      arrivals->requireSizeOf(0, in.key, 0); // one counter a key/value head
    }
  }
  BackwardSequence seq = denseSequence(k, in);
  BlockMaskArgs lists;
  declareBlockMask(k, cfg, variant, lists, seq);
  KernelInputs inputs = declareInputs(k, variant, in.q.dim(0));
  Tile kvHead = k.programId(1), col0 = k.programId(0) * bn;
  seq.inputs = &inputs;
  KeyBlockGradients grads =
      backwardKeyBlock(k, cfg, variant, in, seq, kvHead, col0, dqAcc ? &*dqAcc : nullptr);
  ColumnBlocks(dk, {1, bn}, cfg.qkParts())
      .store({kvHead, col0}, convertedParts(grads.dK, cfg.dtype));
  ColumnBlocks(dv, {1, bn}, cfg.vParts())
      .store({kvHead, col0}, convertedParts(grads.dV, cfg.dtype));
  if (!arrivals)
    return;
  // The head's key blocks have all added their dQ shares once the last of
  // its programs arrives: that one converts the group's query heads.
  // (The launch checks that the tensor has one counter a key/value head;
  // past its end none is touched.)
  Tile last = k.ifElse(
      kvHead < arrivals->dim(0),
      [&] { return std::vector<Tile>{k.lastArrival(arrivals->base() + kvHead, k.numPrograms(0))}; },
      [&] { return std::vector<Tile>{k.constant(0, DType::I1)}; })[0];
  // One program converts a whole head, 64 KiB of dq_acc a step (64 f32
  // registers a thread of the 256 consumers; 128 spilled). One 128-row
  // block a step measured the same: the kernel's added time (0.10 ms at
  // N = 1k, nearly the convert launch it replaces) is each program's wait
  // for its stores before arriving (bench/RESULTS.md, session 41).
  const int64_t rows = std::max<int64_t>(cfg.blockM, 16384 / cfg.qkColumns());
  k.ifThen(last, [&] {
    k.forRange(0, cfg.group, 1, {}, [&](Tile g, std::vector<Tile>) {
      Tile qHead = kvHead * cfg.group + g;
      k.forRange(0, in.q.dim(1), rows, {}, [&](Tile row0, std::vector<Tile>) {
        convertDQBlock(k, cfg, *accArg, *dqArg, qHead, row0, rows);
        return std::vector<Tile>{};
      });
      return std::vector<Tile>{};
    });
  });
}

void buildAttentionBackwardKV(KernelBuilder &k, const AttentionConfig &cfg,
                              const AttentionVariant &variant) {
  buildKeyBlockKernel(k, cfg, variant, /*fuseDQ=*/false);
}

void buildAttentionBackwardFused(KernelBuilder &k, const AttentionConfig &cfg,
                                 const AttentionVariant &variant) {
  buildKeyBlockKernel(k, cfg, variant, /*fuseDQ=*/true);
}

void buildAttentionBackwardConvertDQ(KernelBuilder &k, const AttentionConfig &cfg) {
  TensorArg acc = headDimTensor(k, "dq_acc", DType::F32, 3, cfg.headDim),
            dq = headDimTensor(k, "dq", cfg.dtype, 3, cfg.headDim);
  convertDQBlock(k, cfg, acc, dq, k.programId(1), k.programId(0) * cfg.blockM, cfg.blockM);
}

void buildAttentionBackwardQ(KernelBuilder &k, const AttentionConfig &cfg,
                             const AttentionVariant &variant) {
  const int64_t bm = cfg.blockM;
  if (cfg.splitColumns)
    k.narrowWgmmaOperands();
  BackwardInputs in = backwardInputs(k, cfg);
  TensorArg dq = headDimTensor(k, "dq", cfg.dtype, 3, cfg.headDim);
  BackwardSequence seq = denseSequence(k, in);
  BlockMaskArgs lists;
  declareBlockMask(k, cfg, variant, lists, seq);
  KernelInputs inputs = declareInputs(k, variant, in.q.dim(0));
  // Longest programs first, as in the forward.
  Tile head = k.programId(1), row0 = (k.numPrograms(0) - 1 - k.programId(0)) * bm;
  seq.inputs = &inputs;
  std::vector<Tile> dQ = backwardQueryBlock(k, cfg, variant, in, seq, head, row0);
  ColumnBlocks(dq, {1, bm}, cfg.qkParts()).store({head, row0}, convertedParts(dQ, cfg.dtype));
}

//===----------------------------------------------------------------------===//
// Parameters and the CPU runs
//===----------------------------------------------------------------------===//

std::vector<ParamSpec> attentionBackwardParams() {
  std::vector<ParamSpec> params =
      withoutForwardLoopParams(attentionParams());
  for (ParamSpec &p : params) {
    if (p.name == "block_m")
      p.help = "query rows per program (dQ) and per loop step (dK, dV); 0: by head_dim";
    if (p.name == "block_n")
      p.help = "keys per program (dK, dV) and per loop step (dQ); 0: by head_dim";
  }
  return params;
}

/// The tiles and warps of defaultBackwardSchedule.
static AttentionSchedule backwardTiles(BackwardKernel kernel, int64_t headDim, bool scoreMod,
                                       const TargetInfo &target, bool packed) {
  // Packed batches keep their sequence's offsets live beside the tiles: on
  // mma.sync the dense schedules below spill a few bytes there (ptxas), so
  // they take smaller steps (dK/dV) or key blocks (dQ).
  if (packed && !target.wgmma && headDim <= 128) {
    if (kernel == BackwardKernel::KV && !scoreMod)
      return headDim <= 64 ? AttentionSchedule{32, 64, 4, true} : AttentionSchedule{16, 64, 8, true};
    if (kernel == BackwardKernel::KV && headDim <= 64) // soft-capping's spilled 4 bytes
      return AttentionSchedule{32, 64, 8, false};
    if (kernel == BackwardKernel::Q && headDim > 64)
      return AttentionSchedule{64, 32, 4, true};
  }
  // Every dot of a kernel has the same M (keys in dK/dV, queries in dQ), and
  // 16 rows per warp keep all of them split over M only: P, dS (or Pᵀ, dSᵀ)
  // then feed the next dot from the registers they are in. The largest tiles
  // that spill nothing (ptxas, sm_80 and sm_90a; scripts/ptxas-check.sh);
  // qInShared puts the loop-invariant A operands (K, V for dK/dV; Q, dO for
  // dQ) in shared memory.
  switch (kernel) {
  case BackwardKernel::Prep: return AttentionSchedule{64, 64, 8, false};
  case BackwardKernel::KV:
    if (scoreMod) { // the modifier's registers beside the dense kernel's tiles
      if (target.wgmma && headDim <= 128)
        return headDim <= 64 ? AttentionSchedule{64, 64, 4, false}
                             : AttentionSchedule{16, 64, 4, true};
      return headDim <= 64    ? AttentionSchedule{64, 64, 8, false}
             : headDim <= 128 ? AttentionSchedule{16, 64, 8, false}
                              : AttentionSchedule{16, 32, 8, false};
    }
    if (headDim <= 64) // mma.sync keeps K and V in shared memory for registers
      return AttentionSchedule{64, 64, 4, !target.wgmma};
    if (headDim <= 128) // mma.sync's fragments take more registers than wgmma's
      return target.wgmma ? AttentionSchedule{32, 64, 4, true} : AttentionSchedule{16, 128, 8, true};
    return AttentionSchedule{16, 64, 4, true};
  case BackwardKernel::Q:
    if (headDim <= 64) // a modifier's slope beside a mask spills 128-key blocks
      return AttentionSchedule{64, target.wgmma && !scoreMod ? 128 : 64, 4, true};
    return headDim <= 128 ? AttentionSchedule{64, 64, 4, true} : AttentionSchedule{32, 32, 4, true};
  }
  return {};
}

AttentionSchedule defaultBackwardSchedule(BackwardKernel kernel, int64_t headDim, bool scoreMod,
                                          const TargetInfo &target, bool packed) {
  AttentionSchedule schedule = backwardTiles(kernel, headDim, scoreMod, target, packed);
  // dP beside S pays where dots are asynchronous (wgmma); mma.sync only
  // holds dP longer.
  schedule.dpBesideS = target.wgmma;
  return schedule;
}

namespace {

/// Random inputs of a backward run, the reference forward and gradients.
struct BackwardProblem {
  int64_t bhQ, bhK, seqQ, seqK, d, dValue; ///< d: Q's and K's columns, dValue: V's and O's
  std::vector<HostBuffer> inputs; ///< q, k, v, do, lse_log2, delta
  std::vector<InputValues> variantInputs; ///< after the kernels' own parameters
  BlockLists byQueries, byKeys; ///< the block mask (variant.blockMask)
  std::vector<double> dq, dk, dv;
};

BackwardProblem makeProblem(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed) {
  BackwardProblem p;
  const int64_t batch = sizes.getInt("batch"), heads = sizes.getInt("heads");
  p.seqQ = sizes.getInt("seq_q");
  p.seqK = sizes.getInt("seq_k");
  p.d = cfg.headDim;
  p.dValue = cfg.valueDim();
  p.bhQ = batch * heads;
  p.bhK = batch * std::max<int64_t>(1, heads / cfg.group);
  const double amplitude = sizes.getFloat("amplitude");
  std::mt19937_64 rng(seed);
  p.inputs = {examples::randomBuffer("q", cfg.dtype, p.bhQ * p.seqQ * p.d, rng, amplitude),
              examples::randomBuffer("k", cfg.dtype, p.bhK * p.seqK * p.d, rng, amplitude),
              examples::randomBuffer("v", cfg.dtype, p.bhK * p.seqK * p.dValue, rng),
              examples::randomBuffer("do", cfg.dtype, p.bhQ * p.seqQ * p.dValue, rng)};
  p.variantInputs = inputValues(variant, {batch, heads, p.seqQ, p.seqK}, rng);
  ReferenceAttention ref{p.bhQ, p.seqQ, p.seqK, p.d, cfg.group, cfg.scale, &variant};
  ref.headDimV = p.dValue;
  ref.headsPerBatch = heads;
  ref.inputs = &p.variantInputs;
  if (variant.blockMask) {
    p.byQueries = hostBlockMask(ref);
    p.byKeys = hostBlockMask(ref, /*byKeys=*/true);
  }
  std::vector<double> o, lse;
  const std::vector<double> &Q = p.inputs[0].data, &K = p.inputs[1].data, &V = p.inputs[2].data,
                            &dO = p.inputs[3].data;
  ref.forward(Q, K, V, o, lse);
  ref.backward(Q, K, V, dO, p.dq, p.dk, p.dv);
  // What the prep kernel makes of the forward's O and LSE.
  const int64_t rows = backwardStatRows(p.seqQ);
  std::vector<double> delta(p.bhQ * rows, 0.0), lse2(p.bhQ * rows, 0.0);
  for (int64_t h = 0; h < p.bhQ; ++h)
    for (int64_t i = 0; i < p.seqQ; ++i) {
      const int64_t r = h * p.seqQ + i;
      for (int64_t t = 0; t < p.dValue; ++t)
        delta[h * rows + i] += dO[r * p.dValue + t] * o[r * p.dValue + t];
      lse2[h * rows + i] = lse[r] == -kInf ? kInf : lse[r] * M_LOG2E;
    }
  for (std::vector<double> *stat : {&lse2, &delta})
    for (double &x : *stat)
      x = roundTo(DType::F32, x);
  p.inputs.push_back(HostBuffer{"lse_log2", DType::F32, std::move(lse2)}); // Q..dO dangle from here
  p.inputs.push_back(HostBuffer{"delta", DType::F32, std::move(delta)});
  return p;
}

TensorBinding tensor3(int buffer, int64_t bh, int64_t seq, int64_t d) {
  return TensorBinding{buffer, {bh, seq, d}, {seq * d, d, 1}};
}
TensorBinding tensor2(int buffer, int64_t bh, int64_t seq) {
  return TensorBinding{buffer, {bh, seq}, {seq, 1}};
}

/// q, k, v, do, lse_log2, delta as the first six arguments.
std::vector<ArgBinding> inputArgs(const BackwardProblem &p) {
  return {tensor3(0, p.bhQ, p.seqQ, p.d),
          tensor3(1, p.bhK, p.seqK, p.d),
          tensor3(2, p.bhK, p.seqK, p.dValue),
          tensor3(3, p.bhQ, p.seqQ, p.dValue),
          tensor2(4, p.bhQ, backwardStatRows(p.seqQ)),
          tensor2(5, p.bhQ, backwardStatRows(p.seqQ))};
}

/// Gradients through bf16/f16 P and dS, accumulated in f32: 1 % of the
/// largest (the CPU runs measure under 0.5 %).
constexpr double kGradientTolerance = 1e-2;

} // namespace

RunPlan planAttentionBackwardPrep(const AttentionConfig &cfg, const Params &sizes, uint64_t seed) {
  const int64_t bh = sizes.getInt("batch") * sizes.getInt("heads");
  const int64_t seqQ = sizes.getInt("seq_q"), d = cfg.valueDim(), rows = backwardStatRows(seqQ);
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("o", cfg.dtype, bh * seqQ * d, rng),
                 examples::randomBuffer("do", cfg.dtype, bh * seqQ * d, rng),
                 examples::randomBuffer("lse", DType::F32, bh * seqQ, rng, 10.0),
                 examples::outputBuffer("delta", DType::F32, bh * rows),
                 examples::outputBuffer("lse_log2", DType::F32, bh * rows)};
  std::vector<double> &lse = plan.memory[2].data;
  for (size_t r = 0; r < lse.size(); r += 7)
    lse[r] = -kInf; // rows that saw no key
  plan.args = {tensor3(0, bh, seqQ, d), tensor3(1, bh, seqQ, d), tensor2(2, bh, seqQ),
               tensor2(3, bh, rows), tensor2(4, bh, rows)};
  plan.grid = {examples::ceilDiv(seqQ, cfg.blockM), bh, 1};
  std::vector<double> delta(bh * rows, 0.0), lse2(bh * rows, 0.0);
  for (int64_t h = 0; h < bh; ++h)
    for (int64_t i = 0; i < seqQ; ++i) {
      const int64_t r = h * seqQ + i;
      for (int64_t t = 0; t < d; ++t)
        delta[h * rows + i] += plan.memory[0].data[r * d + t] * plan.memory[1].data[r * d + t];
      lse2[h * rows + i] = lse[r] == -kInf ? kInf : lse[r] * M_LOG2E;
    }
  plan.expected = {{3, delta}, {4, lse2}};
  plan.tolerance = 1e-5; // f32 sums of products of exact inputs
  return plan;
}

/// The dK/dV kernel's run of problem `p` (the fused kernel's adds dq_acc).
static RunPlan keyBlockPlan(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const BackwardProblem &p) {
  RunPlan plan;
  plan.memory = p.inputs;
  plan.memory.push_back(examples::outputBuffer("dk", cfg.dtype, p.bhK * p.seqK * p.d));
  plan.memory.push_back(examples::outputBuffer("dv", cfg.dtype, p.bhK * p.seqK * p.dValue));
  plan.args = inputArgs(p);
  plan.args.push_back(tensor3(6, p.bhK, p.seqK, p.d));
  plan.args.push_back(tensor3(7, p.bhK, p.seqK, p.dValue));
  if (variant.blockMask)
    bindBlockLists(plan, p.byKeys, p.bhQ, p.seqQ, p.seqK, /*byKeys=*/true);
  bindInputs(plan, p.variantInputs);
  plan.grid = {examples::ceilDiv(p.seqK, cfg.blockN), p.bhK, 1};
  plan.expected = {{6, p.dk}, {7, p.dv}};
  plan.tolerance = kGradientTolerance;
  return plan;
}

RunPlan planAttentionBackwardKV(const AttentionConfig &cfg, const AttentionVariant &variant,
                                const Params &sizes, uint64_t seed) {
  return keyBlockPlan(cfg, variant, makeProblem(cfg, variant, sizes, seed));
}

/// Inserts `buffers` into `plan` at `position`, each the argument of the
/// same index, after the buffers and arguments before it (those from
/// `position` on move up).
static void insertArguments(RunPlan &plan, int position,
                            std::vector<std::pair<HostBuffer, TensorBinding>> buffers) {
  const int n = static_cast<int>(buffers.size());
  for (ArgBinding &arg : plan.args) {
    if (auto *t = std::get_if<TensorBinding>(&arg); t && t->buffer >= position)
      t->buffer += n;
    if (auto *t = std::get_if<PointerBinding>(&arg); t && t->buffer >= position)
      t->buffer += n;
  }
  for (RunPlan::Expected &e : plan.expected)
    if (e.buffer >= position)
      e.buffer += n;
  for (int i = 0; i < n; ++i) {
    buffers[i].second.buffer = position + i;
    plan.memory.insert(plan.memory.begin() + position + i, std::move(buffers[i].first));
    plan.args.insert(plan.args.begin() + position + i, buffers[i].second);
  }
}

RunPlan planAttentionBackwardFused(const AttentionConfig &cfg, const AttentionVariant &variant,
                                   const Params &sizes, uint64_t seed) {
  BackwardProblem p = makeProblem(cfg, variant, sizes, seed);
  RunPlan plan = keyBlockPlan(cfg, variant, p);
  // dq_acc after dk and dv (arguments 6, 7), before the variant's own; with
  // dqByLastProgram dq and the counters after it.
  const int position = 8;
  const int64_t elements = p.bhQ * p.seqQ * p.d;
  plan.repeatable = false; // dq_acc: atomic adds
  if (!cfg.dqByLastProgram) {
    insertArguments(plan, position,
                    {{HostBuffer{"dq_acc", DType::F32, std::vector<double>(elements, 0.0)},
                      tensor3(position, p.bhQ, p.seqQ, p.d)}});
    // dq_acc holds dS·K; the conversion scales it.
    std::vector<double> unscaled = p.dq;
    for (double &x : unscaled)
      x /= cfg.softmaxScale();
    plan.expected.push_back({position, unscaled});
    return plan;
  }
  insertArguments(
      plan, position,
      {{HostBuffer{"dq_acc", DType::F32, std::vector<double>(elements, 0.0)},
        tensor3(position, p.bhQ, p.seqQ, p.d)},
       {examples::outputBuffer("dq", cfg.dtype, elements), tensor3(position, p.bhQ, p.seqQ, p.d)},
       {HostBuffer{"dq_arrivals", DType::I32, std::vector<double>(p.bhK, 0.0)},
        TensorBinding{position, {p.bhK}, {1}}}});
  // dq converted, dq_acc and the counters back at zero.
  plan.expected.push_back({position, std::vector<double>(elements, 0.0)});
  plan.expected.push_back({position + 1, p.dq});
  plan.expected.push_back({position + 2, std::vector<double>(p.bhK, 0.0)});
  return plan;
}

RunPlan planAttentionBackwardConvertDQ(const AttentionConfig &cfg, const Params &sizes,
                                       uint64_t seed) {
  const int64_t bh = sizes.getInt("batch") * sizes.getInt("heads");
  const int64_t seqQ = sizes.getInt("seq_q"), d = cfg.headDim;
  std::mt19937_64 rng(seed);
  RunPlan plan;
  plan.memory = {examples::randomBuffer("dq_acc", DType::F32, bh * seqQ * d, rng),
                 examples::outputBuffer("dq", cfg.dtype, bh * seqQ * d)};
  plan.args = {tensor3(0, bh, seqQ, d), tensor3(1, bh, seqQ, d)};
  plan.grid = {examples::ceilDiv(seqQ, cfg.blockM), bh, 1};
  // dq = dq_acc · scale, the product rounded to f32 (the scale too) and
  // then to the inputs' type, as the kernel does.
  std::vector<double> dq = plan.memory[0].data;
  const double scale = roundTo(DType::F32, cfg.softmaxScale());
  for (double &x : dq)
    x = roundTo(cfg.dtype, roundTo(DType::F32, x * scale));
  plan.expected = {{0, std::vector<double>(dq.size(), 0.0)}, {1, dq}};
  plan.tolerance = 0; // a rounding of each element
  return plan;
}

RunPlan planAttentionBackwardQ(const AttentionConfig &cfg, const AttentionVariant &variant,
                               const Params &sizes, uint64_t seed) {
  BackwardProblem p = makeProblem(cfg, variant, sizes, seed);
  RunPlan plan;
  plan.memory = p.inputs;
  plan.memory.push_back(examples::outputBuffer("dq", cfg.dtype, p.bhQ * p.seqQ * p.d));
  plan.args = inputArgs(p);
  plan.args.push_back(tensor3(6, p.bhQ, p.seqQ, p.d));
  if (variant.blockMask)
    bindBlockLists(plan, p.byQueries, p.bhQ, p.seqQ, p.seqK);
  bindInputs(plan, p.variantInputs);
  plan.grid = {examples::ceilDiv(p.seqQ, cfg.blockM), p.bhQ, 1};
  plan.expected = {{6, p.dq}};
  plan.tolerance = kGradientTolerance;
  return plan;
}

} // namespace tilec::attention
