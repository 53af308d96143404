//===- BlockMask.cpp - which key blocks each query block visits -----------===//
//
// FlexAttention's create_block_mask for any mask, as a tilec kernel: the
// mask evaluated on every (query block, key block) pair of kMaskBlock x
// kMaskBlock scores says whether the pair is skipped (nothing kept),
// partial (some kept: the attention loop masks it) or full (everything kept
// within the sequences: no mask). The forward and dQ visit the listed key
// blocks only (attendKeys with a BlockList); dK/dV, per key block, the
// query blocks of the lists made by keys.
//
//===----------------------------------------------------------------------===//

#include "FlashAttention.h"

#include "../ExampleSupport.h"

namespace tilec::attention {

using namespace tilec::dsl;

int64_t maskBlocks(int64_t seq) { return (seq + kMaskBlock - 1) / kMaskBlock; }

void buildAttentionBlockMask(KernelBuilder &k, const AttentionVariant &variant, bool byKeys) {
  const int64_t B = kMaskBlock;
  Tile seqQ = k.scalar("seq_q", DType::I32), seqK = k.scalar("seq_k", DType::I32);
  TensorArg counts = k.tensor("block_counts", DType::I32, 3);
  TensorArg blocks = k.tensor("blocks", DType::I32, 3);
  KernelInputs inputs = declareInputs(k, variant, counts.dim(0));
  // The program's block (of queries; by keys, of keys) and the blocks of
  // the other side it scans.
  Tile head = k.programId(1), own = k.programId(0);
  Tile others = blocks.dim(2);
  // Row (head, own) of the lists: partial blocks from the front, full ones
  // from the back, each written by a one-element store.
  Tile listRow = blocks.base() + head.to(DType::I64) * blocks.stride(0) +
                 own.to(DType::I64) * blocks.stride(1);
  Tile slot0 = k.iota(1).to(DType::I64);
  Tile zero = k.constant(0, DType::I32);
  // Lists that do not match the grid (a wrong launch) are not written
  // outside their tensor.
  Tile listFits = head < blocks.dim(0) && own < blocks.dim(1);
  std::vector<Tile> found = k.forRange(0, others, 1, {zero, zero}, [&](Tile other, std::vector<Tile> n) {
    Tile row0 = (byKeys ? other : own) * B, col0 = (byKeys ? own : other) * B;
    Tile rows = row0 + k.iota(B), cols = col0 + k.iota(B);
    BlockContext ctx{k, rows, cols, head, seqQ, seqK, &inputs};
    Tile rowIn = (rows < seqQ).col(), colIn = (cols < seqK).row();
    Tile keep = variant.mask ? variant.mask(ctx) : (colIn || !colIn);
    auto total = [](Tile x) {
      return reduce(Reduction::Sum, reduce(Reduction::Sum, x.to(DType::F32), 1), 0);
    };
    Tile kept = total(keep && rowIn && colIn);
    Tile dropped = total(rowIn && !keep); // scores of real rows the mask drops
    Tile any = kept > 0.0;
    // Full: nothing to mask, the keys inside the sequence (and, by keys,
    // the queries too: the dK/dV loop's unmasked steps take every row).
    Tile full = any && dropped == 0.0 && col0 + B <= seqK;
    if (byKeys)
      full = full && row0 + B <= seqQ;
    Tile partial = any && !full;
    Tile slot = where(full, others - 1 - n[1], n[0]);
    store(listRow + slot.to(DType::I64) * blocks.stride(2) + slot0, k.splat(other, {1}),
          k.splat(any && listFits, {1}));
    return std::vector<Tile>{n[0] + partial.to(DType::I32), n[1] + full.to(DType::I32)};
  });
  Tile which = k.iota(2);
  store(counts.base() + head.to(DType::I64) * counts.stride(0) +
            own.to(DType::I64) * counts.stride(1) + which.to(DType::I64) * counts.stride(2),
        where(which == 0, found[0], found[1]), which < counts.dim(2));
}

std::vector<Tile> overListedBlocks(KernelBuilder &k, const BlockList &list, int64_t run,
                                   Tile first, std::vector<Tile> state,
                                   const std::function<LoopStep(bool masked)> &step) {
  // Step u is the (u mod r)-th run of the (u div r)-th listed block.
  const int64_t r = kMaskBlock / run;
  auto listed = [&](Tile from, Tile to, bool masked) {
    LoopStep body = step(masked);
    state = k.forRange(from * r, to * r, 1, state, [&](Tile u, std::vector<Tile> st) {
      return body(first + list.block(u / r) * kMaskBlock + (u % r) * run, st);
    });
  };
  listed(k.constant(0, DType::I32), list.partial, true);
  listed(list.fullFirst, list.end, false);
  return state;
}

std::vector<Tile> overListedBlocksPipelined(KernelBuilder &k, const BlockList &list, int64_t run,
                                            Tile first, std::vector<Tile> state,
                                            const std::function<PipelinedStep(bool masked)> &step,
                                            Tile &last) {
  // Steps as overListedBlocks numbers them: [0, partial) then [full, end).
  const int64_t r = kMaskBlock / run;
  auto rowOf = [&](Tile u) { return first + list.block(u / r) * kMaskBlock + (u % r) * run; };
  Tile zero = k.constant(0, DType::I32);
  Tile partial = list.partial * r, full = list.fullFirst * r, end = list.end * r;
  PipelinedStep masked = step(true), unmasked = step(false);
  state = k.forRange(zero, partial, 1, state, [&](Tile u, std::vector<Tile> st) {
    return masked(rowOf(u), rowOf(max(u - 1, zero)), st);
  });
  state = k.forRange(full, end, 1, state, [&](Tile u, std::vector<Tile> st) {
    Tile lastPartial = where(partial > 0, partial - 1, u);
    return unmasked(rowOf(u), rowOf(where(u == full, lastPartial, u - 1)), st);
  });
  last = rowOf(where(end > full, end - 1, max(partial - 1, zero)));
  return state;
}

BlockLists hostBlockMask(const ReferenceAttention &ref, bool byKeys) {
  const int64_t B = kMaskBlock, nQB = maskBlocks(ref.seqQ), nKB = maskBlocks(ref.seqK);
  const int64_t owns = byKeys ? nKB : nQB, others = byKeys ? nQB : nKB;
  BlockLists lists{std::vector<double>(ref.bhQ * owns * 2, 0.0),
                   std::vector<double>(ref.bhQ * owns * others, -1.0)};
  for (int64_t h = 0; h < ref.bhQ; ++h)
    for (int64_t own = 0; own < owns; ++own) {
      int64_t partial = 0, full = 0;
      for (int64_t other = 0; other < others; ++other) {
        const int64_t qb = byKeys ? other : own, kb = byKeys ? own : other;
        bool any = false, all = (kb + 1) * B <= ref.seqK && (!byKeys || (qb + 1) * B <= ref.seqQ);
        for (int64_t i = qb * B; i < std::min((qb + 1) * B, ref.seqQ); ++i)
          for (int64_t j = kb * B; j < (kb + 1) * B; ++j) {
            bool keep = !ref.variant->maskRef || ref.variant->maskRef(ref.at(h, i, j));
            any |= keep && j < ref.seqK;
            all &= keep;
          }
        double *row = &lists.blocks[(h * owns + own) * others];
        if (any && all)
          row[others - 1 - full++] = static_cast<double>(other);
        else if (any)
          row[partial++] = static_cast<double>(other);
      }
      lists.counts[(h * owns + own) * 2] = static_cast<double>(partial);
      lists.counts[(h * owns + own) * 2 + 1] = static_cast<double>(full);
    }
  return lists;
}

void bindBlockLists(RunPlan &plan, const BlockLists &lists, int64_t bhQ, int64_t seqQ,
                    int64_t seqK, bool byKeys) {
  const int64_t owns = maskBlocks(byKeys ? seqK : seqQ), others = maskBlocks(byKeys ? seqQ : seqK);
  int first = static_cast<int>(plan.memory.size());
  plan.memory.push_back(HostBuffer{"block_counts", DType::I32, lists.counts});
  plan.memory.push_back(HostBuffer{"blocks", DType::I32, lists.blocks});
  plan.args.push_back(TensorBinding{first, {bhQ, owns, 2}, {owns * 2, 2, 1}});
  plan.args.push_back(TensorBinding{first + 1, {bhQ, owns, others}, {owns * others, others, 1}});
}

RunPlan planAttentionBlockMask(const AttentionVariant &variant, const Params &sizes,
                               uint64_t seed, bool byKeys) {
  const int64_t batch = sizes.getInt("batch"), heads = sizes.getInt("heads");
  const int64_t seqQ = sizes.getInt("seq_q"), seqK = sizes.getInt("seq_k");
  const int64_t bhQ = batch * heads;
  const int64_t owns = maskBlocks(byKeys ? seqK : seqQ), others = maskBlocks(byKeys ? seqQ : seqK);
  std::mt19937_64 rng(seed);
  std::vector<InputValues> inputs = inputValues(variant, {batch, heads, seqQ, seqK}, rng);
  ReferenceAttention ref{bhQ, seqQ, seqK, 1, 1, 1.0, &variant};
  ref.headsPerBatch = heads;
  ref.inputs = &inputs;
  BlockLists expected = hostBlockMask(ref, byKeys);

  RunPlan plan;
  plan.args = {static_cast<double>(seqQ), static_cast<double>(seqK)};
  // The lists' unwritten entries keep the sentinel, as the host's do.
  BlockLists unwritten{std::vector<double>(bhQ * owns * 2, -1.0),
                       std::vector<double>(bhQ * owns * others, -1.0)};
  bindBlockLists(plan, unwritten, bhQ, seqQ, seqK, byKeys);
  bindInputs(plan, inputs);
  plan.grid = {owns, bhQ, 1};
  plan.expected = {{0, expected.counts}, {1, expected.blocks}};
  plan.tolerance = 0; // indices: exact
  return plan;
}

} // namespace tilec::attention
