//===- FlashAttention.h - one forward template, many variants ---*- C++ -*-===//
//
// FlashAttention forward written once in the DSL; a variant is a few small
// functions on top of it (FlexAttention's score_mod / mask_mod model):
//
// * `scoreMod` rewrites scaled scores (ALiBi, soft-capping, any bias);
// * `mask` says which scores a query row may use (causal, sliding window);
// * `keyRange` says which key blocks a query block visits at all and which of
//   them need no mask, so fully masked blocks are skipped by loop bounds and
//   only the boundary blocks pay for the mask;
// * `scoreModRef` / `maskRef` say the same in plain C++ for the
//   double-precision reference (attention/Rules.h makes both from one
//   generic definition: withScoreMod, withMask).
//
// Layout: Q, O are [batch·heads_q, seq_q, d]; K, V are [batch·heads_kv,
// seq_k, d]; LSE is [batch·heads_q, seq_q] f32, natural log. Query head h
// reads key/value head h / group. Causal masks are aligned to the bottom
// right (row i sees keys j <= i + seq_k - seq_q, as FlashAttention-2 does), so
// with seq_q > seq_k the first rows see no key: their output is 0 and their
// log-sum-exp is -inf, never NaN.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_EXAMPLES_ATTENTION_FLASHATTENTION_H
#define TILEC_EXAMPLES_ATTENTION_FLASHATTENTION_H

#include "tilec/DSL/DSL.h"
#include "tilec/Registry.h"

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tilec::attention {

/// The fused backward's dQ share of a step (dQ = dS·K, stored to shared
/// memory and added into dq_acc by a TMA reduction) beside dK += dSᵀ·Q.
enum class DqOrder {
  /// dK's dot first; dQ's dot and store after it (dQ's wait also waits
  /// for dK).
  AfterDK,
  /// dQ's dot and store first, then dK's dot: only dV's dot is in flight
  /// beside dQ's, and dQ's accumulator is free before dK's starts.
  BeforeDK,
  /// dQ's dot, then dK's, then dQ's store: dK's dot runs while dQ's rows
  /// go to shared memory and the reduction is issued (FlashAttention-3's
  /// order; dQ's accumulator is live beside dK's in flight).
  DotBeforeDK,
};

/// Where a backward dK/dV step (transposed, [keys, queries]) reads its
/// queries' row statistics, lse and delta, each broadcast over the queries
/// (16 registers a thread at 64 queries).
enum class StatisticsRead {
  /// Both at the top of the step: live across its dots.
  StepTop,
  /// Each right where it is used (lse after the scores' dots, delta after
  /// dP's): fewest live registers, their loads' latency exposed.
  AtUse,
  /// lse at the top, so that its load's latency hides under the scores'
  /// dots, and delta once lse is used, so that its load's hides beside the
  /// exponentials (AtUse reads it right before dP's wait, where ncu saw
  /// its loads stall; session 49).
  LseAtTop,
};

/// The tuning side: block sizes and types, apart from the math.
struct AttentionConfig {
  /// d_qk: the columns of Q and K (and dQ, dK), a multiple of 8 up to 256.
  int64_t headDim = 64;
  /// d_v: the columns of V and O (and dV, dO); 0: headDim.
  int64_t headDimV = 0;
  int64_t blockM = 64;   ///< query rows per program
  int64_t blockN = 64;   ///< keys per loop step
  DType dtype = DType::BF16;
  int64_t group = 1;     ///< query heads per key/value head (GQA; MQA: all)
  /// Row groups per program that share each K/V block (blockM divisible).
  int64_t rowGroups = 1;
  /// Software-pipelined loop (FlashAttention-3's intra-warpgroup overlap):
  /// step j issues S_j = Q·K_jᵀ and the previous block's O += P_{j-1}·V_{j-1}
  /// together, so the softmax of S_j runs while P·V is on the tensor cores;
  /// O is rescaled after it, the last block's P·V follows the loops.
  bool overlap = false;
  /// With overlap: the first block's step on its own before the loops (its
  /// Q·Kᵀ and softmax; no P·V of zeros, no V block read for it), as
  /// FlashAttention-3 peels it. Its K block takes a slot of the loops' ring.
  bool peelFirst = false;
  /// With overlap: the last block's P·V (after the loops) in a loop of one
  /// step of its own, so that on the GPU (warp-specialized) its V block
  /// comes through the key loops' rings (the next slot) instead of a buffer
  /// of its own (at d = 128 and 176-key blocks that buffer would not fit).
  /// Not over a block mask's lists.
  bool lastValuesInLoop = false;
  /// The row sum l kept per thread through the key loops (each thread's
  /// share of a row, [rows, 4] in the MMA layouts: P's columns summed
  /// within the thread) and summed across threads once after them, as
  /// FlashAttention-3 does, instead of an exchange between threads every
  /// step (which the row max still needs). The forward's overlapped and
  /// plain loops (not the backward, which reads the forward's LSE).
  bool rowSumsAtEnd = false;
  /// The row sum l as one more column part of O: P·1 (8 columns of ones in
  /// V's place, kSumColumns) on the tensor cores beside P·V, rescaled with
  /// O, so the softmax adds no P up (the sum is of P as rounded for P·V,
  /// the same P as O's; on sm_90a a key part under 64 keys takes its P·1
  /// on mma.sync, but in split_columns kernels). Replaces rowSumsAtEnd where
  /// both are asked for. Measured 0.93-1.02x the default (H100, session 47).
  bool rowSumsByDot = false;
  /// FlashAttention-4's lazy rescale: a row's running max moves only when a
  /// block's exceeds it by more than kLazyRescaleThreshold (P stays below
  /// 2^8; the output is the same), and O is rescaled with scaleRows, which
  /// on the GPU a warp skips where every alpha is 1 (most steps).
  bool lazyRescale = false;
  /// With overlap: O is rescaled by a block's alpha just before the next
  /// block's P·V is issued (FlashAttention-3's order; the alpha is carried
  /// in the loop state), not right after the softmax that makes it, so no
  /// instruction of the softmax touches O while the previous P·V runs.
  bool rescaleBeforePV = false;
  /// A head dim that is not a power of two becomes power-of-two column
  /// tiles side by side (96: 64 + 32) instead of one padded tile (128):
  /// fewer MMAs and loads, more of them (not the decode combine and
  /// backward prep kernels, which pad).
  bool splitColumns = false;
  /// Backward: issue dP = dO·Vᵀ right after S = Q·Kᵀ (wgmma runs both while
  /// the scores become P); off, dP follows P (fewer live registers).
  bool dpBesideS = true;
  /// Backward dK/dV: where the key range is monotone (KeyRange::monotone),
  /// find a key block's query blocks by bisection instead of a scan.
  bool bisectQueryRanges = false;
  /// Backward dK/dV with query-head groups (GQA): one query loop over
  /// (query block, head) pairs, head fastest, instead of a loop per head
  /// (whose rings each take their own shared memory).
  bool groupsInOneLoop = false;
  /// Backward dK/dV: where the row statistics (lse, delta) are read
  /// (reading them late keeps fewer registers live and exposes more
  /// latency: only where the registers are what limits).
  StatisticsRead statistics = StatisticsRead::StepTop;
  /// Fused backward: the two warpgroups meet once a step, after dSᵀ's
  /// store, rather than again after dQ's staging stores: dSᵀ in two
  /// buffers by the step's parity, and dQ's staging published to the warp
  /// that issues its reduction alone (KernelBuilder::splitStagingBarriers;
  /// FlashAttention-3's structure).
  bool oneConsumerBarrier = false;
  /// Backward dK/dV: each step's scores as [queries, keys] (queries the M
  /// of S = Q·Kᵀ and dP = dO·Vᵀ, as in the forward) rather than
  /// transposed; Pᵀ and dSᵀ reach dV's and dK's dots through shared memory.
  bool queriesAsM = false;
  /// Fused backward: where each step's dQ share (dS·K, added into dq_acc)
  /// goes beside dK += dSᵀ·Q (DqOrder).
  DqOrder dqOrder = DqOrder::AfterDK;
  /// Fused backward: the last program of each key/value head to finish
  /// (tile.last_arrival on a counter a head, the `dq_arrivals` argument)
  /// turns the head's dq_acc into dq and zeroes it, rather than the
  /// separate flash_attention_bwd_dq_convert launch (whose f32 read and
  /// zeroing is 12 % of the d = 64 backward at N = 1k).
  bool dqByLastProgram = false;
  /// Backward: in unmasked steps the scores' scale and the row's lse in
  /// one FFMA a score (contracted: s·c − lse rounds once), rather than a
  /// multiply and a subtraction (masked steps mask between them either
  /// way). Off where registers are tightest: it spilled 8 bytes beside the
  /// sliding window's mask on mma.sync.
  bool lseByFma = true;
  /// Softmax scale; 0 means 1/sqrt(headDim).
  double scale = 0;
  double softmaxScale() const;
  int64_t valueDim() const { return headDimV ? headDimV : headDim; }
  /// The columns of the Q and K tiles, and of the V and O tiles
  /// (tileColumns of the head dims).
  int64_t qkColumns() const { return tileColumns(headDim); }
  int64_t vColumns() const { return tileColumns(valueDim()); }
  /// A tile's columns for a head dim: rounded up to a power of two of at
  /// least 16 (the GPU lowering's tile shapes are powers of two; the MMAs
  /// take k = 16 at a time). The tensors keep their d columns: a block load
  /// reads the columns past d as 0 (adding nothing to Q·Kᵀ, making O's and
  /// the gradients' extra columns 0) and a block store drops them.
  static int64_t tileColumns(int64_t headDim);
  /// The column tiles of Q and K, and of V and O: {qkColumns()}, or with
  /// splitColumns the powers of two (each at least 16) that add up to the
  /// head dim rounded up to 16, widest first.
  std::vector<int64_t> qkParts() const { return columnParts(headDim, splitColumns); }
  std::vector<int64_t> vParts() const { return columnParts(valueDim(), splitColumns); }
  static std::vector<int64_t> columnParts(int64_t headDim, bool split);
  /// A key block's parts: {blockN} for a power of two, else the powers of
  /// two that add up to it, widest first (176: 128 + 32 + 16). Each part's
  /// scores are a tile of their own (tile layouts are powers of two); the
  /// online softmax takes them together and P·V chains over them.
  std::vector<int64_t> keyParts() const;
};

/// Blocks of a head-dim tensor as column tiles side by side: descriptors of
/// [lead..., width] blocks, part c at the columns after parts 0..c-1.
class ColumnBlocks {
public:
  ColumnBlocks() = default;
  ColumnBlocks(const dsl::TensorArg &tensor, const dsl::Shape &lead,
               const std::vector<int64_t> &widths);
  /// The parts of the block whose leading coordinates are `at`.
  std::vector<dsl::Tile> load(const std::vector<dsl::Operand> &at) const;
  void store(const std::vector<dsl::Operand> &at, const std::vector<dsl::Tile> &parts) const;
  /// tile.atomic_add_block of each part (f32 tensors).
  void atomicAdd(const std::vector<dsl::Operand> &at, const std::vector<dsl::Tile> &parts) const;

private:
  /// `at` and part `part`'s first column.
  std::vector<dsl::Operand> offsetsOf(size_t part, std::vector<dsl::Operand> at) const;
  std::vector<dsl::TensorDesc> descs;
  std::vector<int64_t> offsets;
};

/// A key block of K or V in its parts (AttentionConfig::keyParts): part p's
/// rows as column parts (ColumnBlocks of [1, keyParts[p]]).
class KeyPartBlocks {
public:
  KeyPartBlocks() = default;
  KeyPartBlocks(const dsl::TensorArg &tensor, const std::vector<int64_t> &keyParts,
                const std::vector<int64_t> &columnParts);
  /// Part `part` of the block of head `head` whose part starts at `row`.
  std::vector<dsl::Tile> load(const dsl::Operand &head, const dsl::Operand &row,
                              size_t part) const;

private:
  std::vector<ColumnBlocks> parts;
};

/// A tensor parameter whose last dimension is a head dim, `columns`
/// (AttentionConfig::headDim or valueDim()): launches must pass exactly
/// that many (TensorArg::requireSize; the kernel's tiles may have more).
dsl::TensorArg headDimTensor(dsl::KernelBuilder &k, const std::string &name, DType dtype,
                             unsigned rank, int64_t columns);

/// One dimension of a variant's runtime input: a size of the run (the
/// batch, the query heads per batch, seq_q, seq_k) or a fixed count.
struct InputDim {
  enum Kind { Batch, Heads, SeqQ, SeqK, Fixed } kind = Fixed;
  int64_t size = 0; ///< Fixed's count
  static InputDim batch() { return {Batch}; }
  static InputDim heads() { return {Heads}; }
  static InputDim seqQ() { return {SeqQ}; }
  static InputDim seqK() { return {SeqK}; }
  static InputDim fixed(int64_t n) { return {Fixed, n}; }
};

/// The sizes of a run, as an input's dimensions and its fill see them.
struct RunSizes {
  int64_t batch = 1, heads = 1, seqQ = 0, seqK = 0;
  int64_t size(const InputDim &dim) const;
};

/// What a CPU run's values of an input are made from: its shape, the run's
/// sizes and a random source.
struct InputFill {
  std::vector<int64_t> shape;
  RunSizes sizes;
  std::mt19937_64 &rng;
};

/// A tensor the variant reads at run time (FlexAttention's captured
/// tensors: document ids, a bias table, per-head slopes). The kernels take
/// it as a parameter after their own (in the order the variant lists its
/// inputs; it appears in the launch metadata like theirs); rules read it
/// with `at.input("name")(indices...)` (see Rules.h), where an index
/// outside the tensor reads 0.
struct VariantInput {
  std::string name;
  DType dtype = DType::I32;
  std::vector<InputDim> shape;
  /// The CPU runs' values, row-major (rounded to dtype after); absent:
  /// random integers 0..3, or uniform in [-1, 1) for floating-point types.
  std::function<std::vector<double>(const InputFill &)> fill = {};
};

/// A variant's inputs as one kernel declared them.
struct KernelInputs {
  struct Declared {
    std::string name;
    DType dtype;
    dsl::TensorArg tensor;
  };
  std::vector<Declared> tensors;
  /// i32 query heads per batch, read off the first input with a batch
  /// dimension (batch·heads_q / its size) or a heads dimension (its size);
  /// invalid when none has either (the rules' at.batch and at.qhead are
  /// then unknown, and indexing with them reports it).
  dsl::Tile headsPerBatch;
  const Declared *find(const std::string &name) const;
};

/// What a score modifier or mask sees of the current block.
struct BlockContext {
  dsl::KernelBuilder &k;
  dsl::Tile rows;  ///< [blockM] i32 query positions
  dsl::Tile cols;  ///< i32 key positions: [blockN], or one key part's (keyParts)
  /// i32 query head (index into batch·heads_q): a scalar, or a [blockM, 1]
  /// column of one head per row where a program's rows are of several heads
  /// (the decoding kernels' packed GQA); both broadcast against scores.
  dsl::Tile head;
  dsl::Tile seqQ, seqK;
  /// The variant's runtime inputs (none: nullptr).
  const KernelInputs *inputs = nullptr;
};

/// What a key range sees: the query block and the sequence lengths.
struct RangeContext {
  dsl::KernelBuilder &k;
  dsl::Tile row0; ///< first query row of the block
  int64_t blockM, blockN;
  dsl::Tile seqQ, seqK;
};

/// Keys [lo, hi) are visited; blocks inside [fullLo, fullHi) need no mask.
/// All bounds are i32 scalars; lo, fullLo and fullHi are multiples of blockN.
struct KeyRange {
  dsl::Tile lo, hi, fullLo, fullHi;
  /// The range ends later for later query rows (a causal mask's): the
  /// forward's programs, last query block first, come longest first.
  bool growsWithRows = false;
  /// No bound ever decreases from one query block to a later one (causal,
  /// sliding windows, prefix-LM, all keys): the query blocks that visit a
  /// key block, and those that need no mask there, are then runs the
  /// backward finds by bisection instead of a scan over every query block.
  bool monotone = false;
};

/// A runtime input's values in a CPU run (row-major).
struct InputValues {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<double> data;
};

/// Where a score is, as the double-precision reference sees it.
struct RefAt {
  int64_t row, col;
  int64_t head;  ///< index into batch·heads_q
  int64_t batch; ///< head / heads_q
  int64_t qhead; ///< head % heads_q
  int64_t seqQ, seqK;
  const std::vector<InputValues> *inputs = nullptr;
};

struct AttentionVariant {
  std::function<dsl::Tile(dsl::Tile scores, const BlockContext &)> scoreMod;
  std::function<dsl::Tile(const BlockContext &)> mask;
  /// The same mask as a [keys, queries] tile (at.row a [1, rows] row, at.col
  /// a [keys, 1] column), for dK/dV's transposed scores: built in that shape
  /// it costs no transpose of an i1 tile (which spills FlashAttention-3's
  /// dK/dV shape on sm_90a). Made by withMask; none: mask(...).t().
  std::function<dsl::Tile(const BlockContext &)> maskTransposed;
  std::function<KeyRange(const RangeContext &)> keyRange;

  std::function<double(double score, const RefAt &)> scoreModRef;
  std::function<bool(const RefAt &)> maskRef;

  /// Tensors the rules read at run time.
  std::vector<VariantInput> inputs;
  /// The forward visits only the key blocks a block mask lists (parameters
  /// block_counts and blocks, made by buildAttentionBlockMask from the
  /// mask): for masks no key range describes (document ids, any
  /// data-dependent mask). The key range is then not used.
  bool blockMask = false;
};

/// Declares `variant`'s inputs as parameters of the kernel being built,
/// whose query heads are `bhQ` (batch·heads_q, i32).
KernelInputs declareInputs(dsl::KernelBuilder &k, const AttentionVariant &variant,
                           dsl::Tile bhQ);
/// A CPU run's values of the variant's inputs.
std::vector<InputValues> inputValues(const AttentionVariant &variant, const RunSizes &sizes,
                                     std::mt19937_64 &rng);
/// Appends them to plan.memory and plan.args (row-major tensors, in the
/// kernels' parameter order).
void bindInputs(RunPlan &plan, const std::vector<InputValues> &values);

//===----------------------------------------------------------------------===//
// Block masks (BlockMask.cpp): FlexAttention's create_block_mask
//===----------------------------------------------------------------------===//
//
// A block mask lists, per query head and block of kMaskBlock queries, the
// blocks of kMaskBlock keys the mask keeps anything of: block_counts
// [rows, ceil(seq_q / kMaskBlock), 2] i32 holds how many are
// partial (some scores masked) and how many full (none: the loop skips the
// mask); blocks [batch·heads_q, ceil(seq_q / kMaskBlock), ceil(seq_k /
// kMaskBlock)] i32 their indices, the partial ones from the front, the full
// ones from the back (other entries are not written). `rows` is
// batch·heads_q, or (as FlexAttention's create_block_mask with H = None)
// batch when the mask reads no head, or 1 when it reads neither head nor
// batch: query head h uses row h / (batch·heads_q / rows). Choosing fewer
// rows for a mask that reads the head is the caller's mistake, as in Flex.

constexpr int64_t kMaskBlock = 128;
/// AttentionConfig::lazyRescale's threshold, log2 units: P stays below 2^8
/// (FlashAttention-4's value).
constexpr double kLazyRescaleThreshold = 8.0;
int64_t maskBlocks(int64_t seq);
/// flash_attention_block_mask<variant>: parameters seq_q, seq_k (i32),
/// block_counts, blocks, then the variant's inputs. Grid:
/// (ceil(seq_q / kMaskBlock), batch·heads_q). `byKeys`
/// (flash_attention_block_mask_by_keys<variant>, for dK/dV): per key block
/// the query blocks that see it, block_counts [batch·heads_q, ceil(seq_k /
/// kMaskBlock), 2] and blocks [.., ceil(seq_q / kMaskBlock)]; full blocks
/// then also lie inside seq_q. Grid: (ceil(seq_k / kMaskBlock),
/// batch·heads_q).
void buildAttentionBlockMask(dsl::KernelBuilder &k, const AttentionVariant &variant,
                             bool byKeys = false);
/// A block mask in host memory (the CPU runs').
struct BlockLists {
  std::vector<double> counts, blocks;
};
struct ReferenceAttention;
/// The block mask of `ref`'s variant, sizes and inputs (unwritten entries -1).
BlockLists hostBlockMask(const ReferenceAttention &ref, bool byKeys = false);
/// Appends block_counts and blocks to a plan's memory and arguments.
void bindBlockLists(RunPlan &plan, const BlockLists &lists, int64_t bhQ, int64_t seqQ,
                    int64_t seqK, bool byKeys = false);
RunPlan planAttentionBlockMask(const AttentionVariant &variant, const Params &sizes,
                               uint64_t seed, bool byKeys = false);

/// Builds the forward kernel: parameters q, k, v, o (tensors of rank 3) and
/// lse (rank 2), with variant.blockMask block_counts and blocks, then the
/// variant's inputs. Grid: (ceil(seq_q / blockM), batch·heads_q).
void buildFlashAttention(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                         const AttentionVariant &variant);

/// The queries one row group of a program attends with, and what the
/// variant sees of its rows (BlockContext::rows and ::head).
struct QueryRows {
  std::vector<dsl::Tile> q; ///< [rows, w] column parts (AttentionConfig::qkParts)
  dsl::Tile positions; ///< [rows] i32 query positions
  dsl::Tile head;      ///< see BlockContext::head
};
/// A row group's online-softmax state after the key loop: the unnormalized
/// output, the running max (log2 units) and the row sum.
struct KeyLoopState {
  std::vector<dsl::Tile> acc; ///< column parts (AttentionConfig::vParts)
  dsl::Tile m, l;
};
/// O = acc / l per row, as one reciprocal a row and a multiply an element
/// (a division an element is a dozen instructions with its slow path: 64 a
/// thread in the d = 128 epilogue); a row that saw no key (acc = 0, l = 0)
/// gives 0.
dsl::Tile normalizeRows(dsl::Tile acc, dsl::Tile l);
/// normalizeRows of each column part of a row group's output, in `dtype`.
std::vector<dsl::Tile> normalizedParts(const KeyLoopState &state, DType dtype);
/// Each column part in `dtype`.
std::vector<dsl::Tile> convertedParts(const std::vector<dsl::Tile> &parts, DType dtype);
/// Rows per row group (cfg.blockM / cfg.rowGroups), or 0 after reporting
/// that row_groups does not split block_m into multiples of 16 rows.
int64_t rowGroupRows(dsl::KernelBuilder &k, const AttentionConfig &cfg);

/// Where a program's keys come from: part `part` of the key blocks of K and
/// V (AttentionConfig::keyParts), keyParts[part] rows from row `row` of the
/// tensors (their column parts, AttentionConfig::qkParts and vParts), the
/// sequence's key 0 being row `base` (none: row 0; a packed sequence's first
/// row otherwise).
struct KeyBlocks {
  std::function<std::vector<dsl::Tile>(dsl::Tile row, size_t part)> k, v;
  dsl::Tile base;
};
/// The key blocks a program visits, from a block mask: list entries [0,
/// partial) are partial blocks of kMaskBlock keys, [fullFirst, end) full
/// ones; `block(t)` is entry t's key block (i32 scalars).
struct BlockList {
  std::function<dsl::Tile(dsl::Tile t)> block;
  dsl::Tile partial, fullFirst, end;
};
/// The key loop every attention kernel shares: blocks of cfg.blockN keys
/// over positions [range.lo, range.hi) of the sequence, masked outside
/// [fullLo, fullHi), for each row group of `queries` (software-pipelined
/// with cfg.overlap); with a `list`, the listed blocks instead (pipelined
/// the same way: each step's P·V is the block visited before it).
std::vector<KeyLoopState> attendKeys(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                     const AttentionVariant &variant,
                                     const std::vector<QueryRows> &queries,
                                     const KeyBlocks &keys, dsl::Tile seqQ, dsl::Tile seqK,
                                     const KeyRange &range,
                                     const KernelInputs *inputs = nullptr,
                                     const BlockList *list = nullptr);

/// One step of a key (or query) loop: the rows at `j`, the loop's state.
using LoopStep = std::function<std::vector<dsl::Tile>(dsl::Tile j, std::vector<dsl::Tile> state)>;
/// The three loops over [lo, hi) in steps of `step` around the run
/// [b, c) that needs no mask: step(true) before and after it,
/// step(false) in it. The caller computes every bound before the first
/// loop, so the loops follow one another (and share one ring).
std::vector<dsl::Tile> aroundUnmasked(dsl::KernelBuilder &k, dsl::Tile lo, dsl::Tile b, dsl::Tile c,
                                      dsl::Tile hi, dsl::Operand step, std::vector<dsl::Tile> state,
                                      const std::function<LoopStep(bool masked)> &body,
                                      dsl::Where where = dsl::Where::current());
/// Loops over `list`'s blocks in runs of `run` rows (a divisor of
/// kMaskBlock): step(true) on the partial ones, step(false) on the full
/// ones; block b's runs start at row first + b·kMaskBlock + i·run.
std::vector<dsl::Tile> overListedBlocks(dsl::KernelBuilder &k, const BlockList &list, int64_t run,
                                        dsl::Tile first, std::vector<dsl::Tile> state,
                                        const std::function<LoopStep(bool masked)> &step);
/// One step of a software-pipelined key loop: the rows at `j`, those of
/// the step visited before it (j itself at the first step), the state.
using PipelinedStep = std::function<std::vector<dsl::Tile>(dsl::Tile j, dsl::Tile previous,
                                                           std::vector<dsl::Tile> state)>;
/// overListedBlocks for a pipelined step (the first full block's previous
/// is the last partial one's); `last` gets the row of the last step
/// visited (of the first listed block when none is).
std::vector<dsl::Tile>
overListedBlocksPipelined(dsl::KernelBuilder &k, const BlockList &list, int64_t run,
                          dsl::Tile first, std::vector<dsl::Tile> state,
                          const std::function<PipelinedStep(bool masked)> &step, dsl::Tile &last);

/// The block list of query head `head` (of `heads`, batch·heads_q) for
/// its block `queryBlock` (of kMaskBlock queries) from the block_counts and
/// blocks parameters, whose rows are one per query head, one per batch, or
/// one for all (row head / (heads / rows)).
BlockList listedBlocks(dsl::KernelBuilder &k, const dsl::TensorArg &counts,
                       const dsl::TensorArg &blocks, dsl::Tile head, dsl::Tile heads,
                       dsl::Tile queryBlock);

// Building blocks for variants.

/// Every key; only the ragged last block is masked.
KeyRange allKeys(const RangeContext &ctx);
/// Every key, every block masked: a mask with no key range of its own.
KeyRange maskedKeys(const RangeContext &ctx);
/// The variant's key range; without one, maskedKeys when it has a mask
/// (which then applies to every block), allKeys when not.
KeyRange keyRangeOf(const AttentionVariant &variant, const RangeContext &ctx);
/// Keys j with i + (seqK - seqQ) - window <= j <= i + (seqK - seqQ): causal
/// without a window, sliding window with one.
KeyRange causalKeys(const RangeContext &ctx, std::optional<int64_t> window = std::nullopt);
dsl::Tile causalMask(const BlockContext &ctx, std::optional<int64_t> window = std::nullopt);
/// Causal keys, and every query also sees the first `prefix` keys
/// (prefix-LM): the causal range widened to the prefix, unmasked up to its
/// last whole block.
KeyRange prefixCausalKeys(const RangeContext &ctx, int64_t prefix);
bool causalMaskRef(int64_t row, int64_t col, int64_t seqQ, int64_t seqK,
                   std::optional<int64_t> window = std::nullopt);

/// A CPU run: random Q, K, V for the given sizes (batch, heads, seq_q,
/// seq_k, amplitude), the launch, and O and LSE from a double-precision
/// reference that applies the variant's scoreModRef / maskRef.
RunPlan planAttention(const AttentionConfig &cfg, const AttentionVariant &variant,
                      const Params &sizes, uint64_t seed);

/// The runtime sizes planAttention reads, with defaults.
std::vector<ParamSpec> attentionSizes();
/// The compile-time parameters every attention kernel takes.
std::vector<ParamSpec> attentionParams();

/// How a kernel runs when the command line does not say: tiles, warps, and
/// whether Q waits in shared memory (tilec --a-in-shared) rather than in
/// registers. The fastest spill-free choices measured on the H200
/// (bench/RESULTS.md, 2026-11-29 sweeps).
struct AttentionSchedule {
  int64_t blockM, blockN, warps;
  bool qInShared;
  int64_t stages = 2; ///< ring slots for K and V (tilec --pipeline-stages)
  int64_t rowGroups = 1; ///< AttentionConfig::rowGroups
  /// On sm_90a: TMA rings, filled by the consumers or by a producer
  /// warpgroup (KernelDef::sm90Pipeline).
  Sm90Pipeline sm90 = Sm90Pipeline::Default;
  bool overlap = false; ///< AttentionConfig::overlap
  bool peelFirst = false; ///< AttentionConfig::peelFirst
  bool dpBesideS = true; ///< AttentionConfig::dpBesideS
  bool groupsInOneLoop = false; ///< AttentionConfig::groupsInOneLoop
  StatisticsRead statistics = StatisticsRead::StepTop; ///< AttentionConfig::statistics
  bool oneConsumerBarrier = false; ///< AttentionConfig::oneConsumerBarrier
  bool queriesAsM = false;      ///< AttentionConfig::queriesAsM
  DqOrder dqOrder = DqOrder::AfterDK; ///< AttentionConfig::dqOrder
  bool lseByFma = true;         ///< AttentionConfig::lseByFma
  bool splitColumns = false;    ///< AttentionConfig::splitColumns
  bool rowSumsAtEnd = false;    ///< AttentionConfig::rowSumsAtEnd
  bool lazyRescale = false;     ///< AttentionConfig::lazyRescale
  bool rescaleBeforePV = false; ///< AttentionConfig::rescaleBeforePV
};
/// `heavyScores`: the variant adds per-score work that needs registers (a
/// window's two-sided mask, ALiBi's bias), so it keeps smaller score tiles.
/// `target`: wgmma (sm_90a) affords bigger tiles than mma.sync.
AttentionSchedule defaultSchedule(int64_t headDim, bool heavyScores, const TargetInfo &target);
/// Whether the forward of `variant` at head dims (`headDim`, `headDimV`;
/// 0: the same) runs as a persistent grid by default (tilec --persistent):
/// where it measured faster. `maskToo`: the variant's mask does not rule it
/// out (VariantRegistration::persistentWithMask; taken at the head dims
/// measured with a mask).
bool persistentByDefault(int64_t headDim, int64_t headDimV, bool heavyScores,
                         const TargetInfo &target, const AttentionVariant &variant,
                         bool maskToo = false);

/// Whether the forward of `variant`, where it runs as a persistent grid by
/// default (persistentByDefault), claims its tiles from a counter (tilec
/// --tile-counter) by default: where it measured faster.
bool tileCounterByDefault(const AttentionVariant &variant);
/// The slots of Q's ring (tilec --tile-slots) of that forward, at head dims
/// (`headDim`, `headDimV`; 0: the same), by default: 2 (the next tile's Q
/// loads during this one) where it measured faster.
int64_t tileSlotsByDefault(int64_t headDim, int64_t headDimV, const AttentionVariant &variant);

/// Whether the fused backward of `variant` with `cfg` (its default tiles)
/// runs as a persistent grid whose programs claim their (key block, head)
/// tiles from a counter (tilec --persistent --tile-counter) by default:
/// where it measured faster. `maskToo` as for persistentByDefault.
bool fusedBackwardPersistentByDefault(const AttentionConfig &cfg, const TargetInfo &target,
                                      const AttentionVariant &variant, bool maskToo);

/// The forward's parameter `seq_schedule`: `auto` (the schedules above) or
/// `long`, the schedule measured fastest from N = 4k where it differs
/// (longSequenceSchedule); compile-torch-kernels.sh compiles both and the
/// Python launcher (forward="auto") picks by length.
ParamSpec seqScheduleParam();
/// Makes `schedule` (the forward's default at head dim `headDim`) the one
/// measured fastest on long sequences, and says whether it changed it:
/// at d = 64 without a mask, score modifier, runtime inputs or query
/// groups on TMA, 256-row tiles on four warpgroups.
bool longSequenceSchedule(AttentionSchedule &schedule, int64_t headDim, int64_t group,
                          const TargetInfo &target, const AttentionVariant &variant);

/// Whether `split_columns=auto` splits: on wgmma, for the variants without
/// heavy scores, where the padded tile would be 256 columns wide and every
/// column tile is at least 64 (d = 192; bench/RESULTS.md, session 27), and
/// where a 128-column tile would be 64 + 16 or 64 + 32 columns (d = 72, 80,
/// 96; session 34).
bool splitColumnsByDefault(int64_t headDim, int64_t headDimV, bool heavyScores,
                           const TargetInfo &target);
/// The forward's schedule on split column tiles (splitColumnsByDefault)
/// wider than 128 columns (d = 192): Q·Kᵀ with Q in registers, and 128-key
/// blocks where V is at most 128 wide ((192, 128)) and the variant has
/// `plainScores` (no mask, no score modifier); measured on the H100
/// (bench/RESULTS.md, session 33). At d = 192 and (192, 128), O rescaled
/// just before the next block's P·V (rescaleBeforePV; sessions 48, 49).
/// Narrower split tiles keep `schedule`.
void scheduleSplitColumns(AttentionSchedule &schedule, int64_t headDim, int64_t headDimV,
                          bool plainScores);

/// The config for `params`, tiles from the schedule unless block_m/block_n say.
AttentionConfig configFrom(const Params &params, const AttentionSchedule &schedule);
/// Only what every attention kernel (forward or backward) takes: head_dim,
/// head_dim_v, block_m, block_n (from the schedule unless set) and dtype.
AttentionConfig tileConfigFrom(const Params &params, const AttentionSchedule &schedule);
/// The head dim the default schedules are chosen by: the wider tile's
/// columns (AttentionConfig::tileColumns of head_dim and head_dim_v).
int64_t scheduleHeadDim(const Params &params);
/// `params` without the parameters named `names`.
std::vector<ParamSpec> withoutParams(std::vector<ParamSpec> params,
                                     std::initializer_list<std::string_view> names);
/// `params` without those of the forward's key loops alone (row_groups,
/// overlap, peel_first, last_values, row_sums, lazy_rescale, rescale_at),
/// which the backward and decoding kernels refuse by name.
std::vector<ParamSpec> withoutForwardLoopParams(std::vector<ParamSpec> params);

//===----------------------------------------------------------------------===//
// Backward
//===----------------------------------------------------------------------===//
//
// Three kernels, from the same variant as the forward (its score modifier's
// derivative comes from the modifier itself, through dsl::derivative):
//
// 1. prep: delta = rowsum(dO ∘ O) and the LSE in log2 units, per query row;
// 2. dK, dV: a program per block of blockN keys and K/V head, looping over
//    the query heads of its group and the query blocks that see its keys
//    (found by scanning the variant's key ranges): P recomputed from Q, K
//    and the forward's LSE, dV += Pᵀ·dO, dP = dO·Vᵀ, dS = P ∘ (dP − delta)
//    ∘ f'(scaled scores), dK += dSᵀ·Q;
// 3. dQ: a program per block of blockM query rows, looping over its key
//    range as the forward does: dQ += dS·K.
// No atomics: every gradient is written by one program, so runs repeat
// bitwise. The variant's key range must agree with its mask (keys outside
// the range are masked), as it does for the forward.

/// Rows of the backward's per-row statistics (delta, lse_log2): seq_q
/// rounded up to a multiple of 4, so each row of them is 16-byte aligned as
/// the streamed loads need (FlashAttention pads them the same way).
int64_t backwardStatRows(int64_t seqQ);

/// The per-row statistics: parameters o, do (rank 3), lse (the forward's,
/// [batch·heads_q, seq_q]), delta = rowsum(dO ∘ O) and lse_log2 = lse·log2(e)
/// (+inf where lse is -inf), both [batch·heads_q, backwardStatRows(seq_q)]
/// f32. Grid: (ceil(seq_q / blockM), batch·heads_q).
void buildAttentionBackwardPrep(dsl::KernelBuilder &k, const AttentionConfig &cfg);
/// dK, dV: parameters q, k, v, do, lse_log2, delta, dk, dv.
/// Grid: (ceil(seq_k / blockN), batch·heads_kv).
void buildAttentionBackwardKV(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                              const AttentionVariant &variant);
/// dQ: parameters q, k, v, do, lse_log2, delta, dq.
/// Grid: (ceil(seq_q / blockM), batch·heads_q).
void buildAttentionBackwardQ(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                             const AttentionVariant &variant);
/// dK, dV as buildAttentionBackwardKV, and each query block's share of dQ
/// (dS·K, scaled) added atomically into dq_acc ([batch·heads_q, seq_q, d]
/// f32, zero before the launch): parameters q, k, v, do, lse_log2, delta,
/// dk, dv, dq_acc. One pass over the scores instead of two (the dQ kernel
/// recomputes S and dP); the sums' order varies from run to run.
void buildAttentionBackwardFused(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                 const AttentionVariant &variant);
/// dq = dq_acc in the inputs' type, and dq_acc zeroed again for the next
/// backward: parameters dq_acc, dq ([batch·heads_q, seq_q, d]). Grid:
/// (ceil(seq_q / blockM), batch·heads_q).
void buildAttentionBackwardConvertDQ(dsl::KernelBuilder &k, const AttentionConfig &cfg);

/// The building blocks of the backward kernels, shared by the dense and the
/// packed (varlen) ones.

/// The inputs every backward kernel but prep takes first: q, k, v, do,
/// lse_log2, delta.
struct BackwardInputs {
  dsl::TensorArg q, key, v, dO, lse2, delta;
};
BackwardInputs backwardInputs(dsl::KernelBuilder &k, const AttentionConfig &cfg);
/// Where a program's sequence lies in the tensors: its queries are rows
/// [qFirst, qFirst + seqQ) of Q and dO, its keys rows [kFirst, kFirst +
/// seqK) of K and V, its statistics rows [statFirst, statFirst + seqQ) of
/// lse_log2 and delta.
struct BackwardSequence {
  dsl::Tile qFirst, kFirst, statFirst, seqQ, seqK;
  /// The rows past seqQ belong to other sequences (or to nobody), so the
  /// statistics read there are replaced before use.
  bool packed = false;
  /// The variant's runtime inputs (BlockContext::inputs).
  const KernelInputs *inputs = nullptr;
  /// With variant.blockMask, its block mask's block_counts and blocks
  /// parameters (by keys for the dK/dV kernels).
  const dsl::TensorArg *blockCounts = nullptr, *blocks = nullptr;
};
/// One sequence per batch·head: every first row 0, the tensors' lengths.
BackwardSequence denseSequence(dsl::KernelBuilder &k, const BackwardInputs &in);
/// dK (scaled) and dV of a key block, f32, as column parts
/// (AttentionConfig::qkParts, vParts).
struct KeyBlockGradients {
  std::vector<dsl::Tile> dK, dV;
};
/// dK and dV of the blockN keys at sequence position `col0` of K/V head
/// `kvHead`: the query blocks that see them, over the query heads of the
/// group. With `dqAcc` (dq_acc's [1, blockM] blocks), also adds each query
/// block's dQ share (scaled) into it, atomically.
KeyBlockGradients backwardKeyBlock(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                   const AttentionVariant &variant, const BackwardInputs &in,
                                   const BackwardSequence &seq, dsl::Tile kvHead, dsl::Tile col0,
                                   const ColumnBlocks *dqAcc = nullptr);
/// dQ (scaled), f32 column parts, of the blockM queries at sequence
/// position `row0` of query head `head`, over the variant's key range.
std::vector<dsl::Tile> backwardQueryBlock(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                          const AttentionVariant &variant, const BackwardInputs &in,
                                          const BackwardSequence &seq, dsl::Tile head,
                                          dsl::Tile row0);
/// The forward's LSE in log2 units, +inf for rows that saw no key (so their
/// P is 0 instead of exp(-inf + inf)).
dsl::Tile log2Lse(dsl::Tile lse);

/// Attention in double precision on [batch·heads, seq, d] arrays with the
/// variant's scoreModRef / maskRef: the reference of every CPU run.
struct ReferenceAttention {
  int64_t bhQ, seqQ, seqK, headDim, group;
  /// The softmax scale; 0: 1/sqrt(headDim) (worked out here, apart from
  /// the kernels' AttentionConfig::softmaxScale).
  double scale;
  double softmaxScale() const;
  const AttentionVariant *variant;
  /// The columns of V and O; 0: headDim.
  int64_t headDimV = 0;
  int64_t valueDim() const { return headDimV ? headDimV : headDim; }
  /// Only keys in [keyLo, keyHi) are seen (one split of a decoding step);
  /// the others count as masked.
  int64_t keyLo = 0, keyHi = INT64_MAX;
  /// The head index scoreModRef sees for head 0 (one sequence of a batch).
  int64_t firstHead = 0;
  /// Query heads per batch (RefAt::batch = head / headsPerBatch; 0: all
  /// heads are of batch 0).
  int64_t headsPerBatch = 0;
  /// The batch of every head (one sequence of a packed batch); -1: from
  /// headsPerBatch.
  int64_t fixedBatch = -1;
  /// The variant's runtime inputs' values.
  const std::vector<InputValues> *inputs = nullptr;
  /// Where row i, key j of (batch·heads) head h is.
  RefAt at(int64_t h, int64_t i, int64_t j) const;

  /// O and the natural-log LSE (-inf, with O = 0, for a row that sees no key).
  void forward(const std::vector<double> &q, const std::vector<double> &k,
               const std::vector<double> &v, std::vector<double> &o,
               std::vector<double> &lse) const;
  /// The gradients of sum(dO ∘ O): dQ, dK, dV (dK, dV summed over the query
  /// heads of each group). The score modifier's derivative is a central
  /// difference of scoreModRef.
  void backward(const std::vector<double> &q, const std::vector<double> &k,
                const std::vector<double> &v, const std::vector<double> &dO,
                std::vector<double> &dq, std::vector<double> &dk,
                std::vector<double> &dv) const;
};

/// CPU runs of the backward kernels: random Q, K, V, dO, the forward's O,
/// LSE and delta from the reference, and the reference's gradients.
RunPlan planAttentionBackwardPrep(const AttentionConfig &cfg, const Params &sizes, uint64_t seed);
RunPlan planAttentionBackwardKV(const AttentionConfig &cfg, const AttentionVariant &variant,
                                const Params &sizes, uint64_t seed);
RunPlan planAttentionBackwardQ(const AttentionConfig &cfg, const AttentionVariant &variant,
                               const Params &sizes, uint64_t seed);
RunPlan planAttentionBackwardFused(const AttentionConfig &cfg, const AttentionVariant &variant,
                                   const Params &sizes, uint64_t seed);
RunPlan planAttentionBackwardConvertDQ(const AttentionConfig &cfg, const Params &sizes,
                                       uint64_t seed);

/// The compile-time parameters of the backward kernels.
std::vector<ParamSpec> attentionBackwardParams();
/// The backward's kernels, which take their own schedules.
enum class BackwardKernel { Prep, KV, Q };
/// Tiles and warps of a backward kernel when the command line does not say;
/// `scoreMod`: the variant has a score modifier (its slope is live beside P,
/// and the dK/dV kernel works on [queries, keys] tiles for it).
/// `packed`: the packed (varlen) batch's kernels.
AttentionSchedule defaultBackwardSchedule(BackwardKernel kernel, int64_t headDim, bool scoreMod,
                                          const TargetInfo &target, bool packed = false);

//===----------------------------------------------------------------------===//
// Decoding: split KV with packed GQA (FlashAttentionDecode.cpp)
//===----------------------------------------------------------------------===//
//
// A decoding step attends seq_q new query tokens per sequence (1 for plain
// decoding, a few for speculative decoding) to seq_k cached keys. Two
// kernels:
//
// 1. flash_attention_decode<variant>: parameters q, k, v, o, lse, o_part,
//    lse_part. q is the [B·Hq, seq_q, d] query tensor viewed as [B·Hkv,
//    group·seq_q, d] (the same memory: the query heads of a K/V head are
//    consecutive), o and lse the forward's outputs viewed alike, so a
//    program takes every query head of its K/V head as rows and reads each
//    K/V block once for all of them. The keys are cut into `splits` runs of
//    decodeSplitKeys keys; a program attends one run (met with the
//    variant's key range) and writes the run's normalized output and
//    natural-log LSE (0 and -inf when it saw no key) as o_part [splits,
//    B·Hkv, group·seq_q, d] and lse_part [splits, B·Hkv, group·seq_q], f32.
//    With one split it writes O and LSE themselves (o_part, lse_part
//    untouched) and the combine is not needed.
//    Grid: (splits = o_part.shape[0], B·Hkv, ceil(group·seq_q / blockM)).
// 2. flash_attention_decode_combine: o_part, lse_part, o, lse: LSE = log
//    Σ_s exp(lse_s), O = Σ_s exp(lse_s − LSE) O_s.
//    Grid: (ceil(group·seq_q / blockM), B·Hkv).
//
// Masks see each row's own query position and head. seq_q up to blockM
// gets the variant's key range; longer queries visit every key, masked.

/// Keys per split run: whole blocks of `blockN`, as even as they come.
int64_t decodeSplitKeys(int64_t seqK, int64_t splits, int64_t blockN);
void buildAttentionDecode(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                          const AttentionVariant &variant);
void buildAttentionDecodeCombine(dsl::KernelBuilder &k, const AttentionConfig &cfg);
/// flash_attention_decode_paged<variant>: decoding from a paged K/V cache.
/// Parameters q (as above), k_cache, v_cache ([num_pages, page_size, Hkv,
/// d] in memory, passed as their [Hkv, num_pages·page_size, d] views:
/// strides d, Hkv·d, 1), block_table [B, max_pages] i32 (sequence b's key
/// i is in page block_table[b, i / page_size]), seq_lens [B] i32, then o,
/// lse, o_part, lse_part as above. Program (split, b·Hkv + h, row block).
/// `pageSize` (compile time) is a multiple of blockN; table entries and
/// lengths are clamped into the cache, so no launch reads outside it.
void buildAttentionDecodePaged(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                               const AttentionVariant &variant, int64_t pageSize);
RunPlan planAttentionDecodePaged(const AttentionConfig &cfg, const AttentionVariant &variant,
                                 int64_t pageSize, const Params &sizes, uint64_t seed);
/// CPU runs: random Q, K, V (or random split outputs, some runs empty) for
/// the decoding sizes, and the reference's per-split (or combined) outputs.
RunPlan planAttentionDecode(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed);
RunPlan planAttentionDecodeCombine(const AttentionConfig &cfg, const Params &sizes,
                                   uint64_t seed);
/// batch, kv_heads, seq_q, seq_k, splits, amplitude.
std::vector<ParamSpec> attentionDecodeSizes();
/// head_dim, block_m (packed rows), block_n, dtype, group.
std::vector<ParamSpec> attentionDecodeParams();
/// ... and page_size, for the paged kernel.
std::vector<ParamSpec> attentionPagedDecodeParams();
/// Tiles, warps and ring slots of the decoding kernels when the command line
/// does not say (`paged`: the paged cache's).
AttentionSchedule defaultDecodeSchedule(int64_t headDim, const TargetInfo &target,
                                        bool paged = false);

//===----------------------------------------------------------------------===//
// Variable-length (packed) batches (FlashAttentionVarlen.cpp)
//===----------------------------------------------------------------------===//
//
// flash_attention_varlen<variant>: sequences of different lengths packed
// end to end, no padding: Q, O [total_q, Hq, d] and K, V [total_k, Hkv, d]
// in memory, passed as their [H, total, d] views (strides d, H·d, 1; in
// PyTorch `x.transpose(0, 1)`). Parameters q [Hq, total_q, d], k, v [Hkv,
// total_k, d], o [Hq, total_q, d], lse [Hq, total_q] (natural log),
// cu_seqlens_q, cu_seqlens_k [B + 1] i32 (sequence b is rows [cu[b],
// cu[b + 1])), max_seqlen_q (the longest query length: sizes the grid).
// Grid: (ceil(max_seqlen_q / blockM), Hq, B): GridDim::sequences, the
// offsets' size less one. Masks and the causal diagonal are per
// sequence (bottom-right aligned, as the dense kernel); empty sequences and
// offsets that run past the tensors (clamped) are allowed.

void buildAttentionVarlen(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                          const AttentionVariant &variant);
/// Ragged lengths of `batch` sequences, the longest `longest` (the CPU
/// runs': full, then empty / one query, half / no keys, ...).
std::vector<int64_t> varlenLengths(int64_t batch, int64_t longest, bool keys);
/// A CPU run: random packed Q, K, V of varlenLengths and the reference per sequence.
RunPlan planAttentionVarlen(const AttentionConfig &cfg, const AttentionVariant &variant,
                            const Params &sizes, uint64_t seed);
std::vector<ParamSpec> attentionVarlenSizes();

// The packed batch's backward: the dense backward's three kernels with the
// sequence offsets after their tensors.
//
// 1. flash_attention_varlen_bwd_prep: o, do [Hq, total_q, d], lse [Hq,
//    total_q] (the forward's), delta, lse_log2 [Hq, varlenStatRows(total_q,
//    B)], cu_seqlens_q, max_seqlen_q. Sequence b's statistics start at row
//    4·(cu_seqlens_q[b] / 4 + b) (16-byte aligned, as the dK/dV kernel's
//    loads need); the rows between sequences are not written.
//    Grid: (ceil(max_seqlen_q / blockM), Hq, B).
// 2. flash_attention_varlen_bwd_dkdv<variant>: q, k, v, do, lse_log2,
//    delta, dk, dv, cu_seqlens_q, cu_seqlens_k, max_seqlen_k.
//    Grid: (ceil(max_seqlen_k / blockN), Hkv, B).
// 3. flash_attention_varlen_bwd_dq<variant>: q, k, v, do, lse_log2, delta,
//    dq, cu_seqlens_q, cu_seqlens_k, max_seqlen_q.
//    Grid: (ceil(max_seqlen_q / blockM), Hq, B).

/// Rows per head of the packed backward's statistics: room for every
/// sequence's rows from its aligned first row.
int64_t varlenStatRows(int64_t totalQ, int64_t batch);
void buildAttentionVarlenBackwardPrep(dsl::KernelBuilder &k, const AttentionConfig &cfg);
void buildAttentionVarlenBackwardKV(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                    const AttentionVariant &variant);
void buildAttentionVarlenBackwardQ(dsl::KernelBuilder &k, const AttentionConfig &cfg,
                                   const AttentionVariant &variant);
/// CPU runs: packed random inputs of varlenLengths, the reference per
/// sequence (NaN statistics between the sequences, which no gradient may read).
RunPlan planAttentionVarlenBackwardPrep(const AttentionConfig &cfg, const Params &sizes,
                                        uint64_t seed);
RunPlan planAttentionVarlenBackwardKV(const AttentionConfig &cfg, const AttentionVariant &variant,
                                      const Params &sizes, uint64_t seed);
RunPlan planAttentionVarlenBackwardQ(const AttentionConfig &cfg, const AttentionVariant &variant,
                                     const Params &sizes, uint64_t seed);

} // namespace tilec::attention

#endif // TILEC_EXAMPLES_ATTENTION_FLASHATTENTION_H
