//===- LinearLayout.h - where each element of a tile lives -----*- C++ -*-===//
//
// A layout says which thread holds which element of a tile: one function from
// (register, lane, warp) to tile coordinates. For power-of-two shapes every
// layout tilec uses (blocked, mma accumulator, mma operands, slices) is linear
// over GF(2): each bit of the register, lane and warp index contributes a fixed
// coordinate vector (its basis), and the coordinates of an element are the XOR
// of the bases of the set bits. A zero basis means replication (two threads,
// or two registers, hold the same element).
//
// Everything else derives from this one function: register-local moves,
// shared-memory exchanges, shuffle reductions, mma fragment orders. It is
// free of MLIR so it can be tested exhaustively and cheaply.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_LAYOUT_LINEARLAYOUT_H
#define TILEC_LAYOUT_LINEARLAYOUT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tilec {

using Coords = std::vector<int64_t>;

class LinearLayout {
public:
  LinearLayout() = default;
  LinearLayout(std::vector<int64_t> shape, std::vector<Coords> regBases,
               std::vector<Coords> laneBases, std::vector<Coords> warpBases);

  /// A tile of `shape` spread over `numWarps` warps with `sizePerThread`
  /// contiguous elements per thread along the fastest dimension, lanes and
  /// then warps filling dimensions in `order` (fastest first); the pattern
  /// repeats in registers where the tile is larger, and threads replicate
  /// where it is smaller.
  static LinearLayout blocked(const std::vector<int64_t> &shape,
                              const std::vector<int64_t> &sizePerThread,
                              const std::vector<int64_t> &threadsPerWarp,
                              const std::vector<int64_t> &warpsPerCTA,
                              const std::vector<int64_t> &order);
  /// A reasonable blocked layout for `shape` and `numWarps`: `vector`
  /// contiguous elements per thread along the last dimension, lanes along the
  /// last dimension first, warps along the first.
  static LinearLayout defaultBlocked(const std::vector<int64_t> &shape, int64_t numWarps,
                                     int64_t vector);

  /// The accumulator of mma.sync m16n8 (f32 C/D fragments) for an MxN tile,
  /// warps arranged warpsM x warpsN (each warp owns 16x8 tiles, repeated).
  static LinearLayout mmaAccumulator(int64_t m, int64_t n, int64_t warpsM, int64_t warpsN);
  /// The accumulator of wgmma m64nNk16 on `warpgroupsM` x `columnGroups`
  /// warpgroups: each warpgroup's four warps own 16 rows each of a 64-row
  /// slab (wgmma's fragment), warpgroups stack along M first, then each
  /// column group owns a block of n / columnGroups consecutive columns (the
  /// N of its wgmma). With one column group, mmaAccumulator(m, n,
  /// 4 * warpgroupsM, 1); operand A in registers is then mmaOperandA(m, k,
  /// 4 * warpgroupsM, columnGroups) (copies along N).
  static LinearLayout wgmmaAccumulator(int64_t m, int64_t n, int64_t warpgroupsM,
                                       int64_t columnGroups);
  /// Operand A (MxK, 16-bit) of mma.sync m16n8k16 for the same warp grid;
  /// replicated across the warps along N.
  static LinearLayout mmaOperandA(int64_t m, int64_t k, int64_t warpsM, int64_t warpsN);
  /// Operand B (KxN, 16-bit) of mma.sync m16n8k16; replicated across the
  /// warps along M.
  static LinearLayout mmaOperandB(int64_t k, int64_t n, int64_t warpsM, int64_t warpsN);

  /// The same layout spread over `numWarps` warps: the warps beyond its own
  /// hold copies (zero bases).
  LinearLayout replicatedOver(int64_t numWarps) const;
  /// The layout of the tile without dimension `dim` (a reduction's result):
  /// registers whose only contribution was along `dim` are dropped; lanes and
  /// warps along it become replicas.
  LinearLayout slice(int64_t dim) const;
  /// The same placement with every basis's components along `dims` set to 0
  /// and those dimensions of size 1: what a broadcast reads in this layout.
  LinearLayout collapse(const std::vector<int64_t> &dims) const;
  /// Removes a size-1 dimension, keeping every register (unlike slice).
  LinearLayout dropUnitDim(int64_t dim) const;
  /// The same placement with a size-1 dimension inserted before `dim`.
  LinearLayout expandDims(int64_t dim) const;
  /// The same placement with dimensions permuted (result dim i = source dim order[i]).
  LinearLayout transpose(const std::vector<int64_t> &order) const;
  const std::vector<int64_t> &shape() const { return dims; }
  int64_t rank() const { return static_cast<int64_t>(dims.size()); }
  int64_t numRegs() const { return int64_t{1} << regBases.size(); }
  int64_t numLanes() const { return int64_t{1} << laneBases.size(); }
  int64_t numWarps() const { return int64_t{1} << warpBases.size(); }
  int64_t numElements() const;
  const std::vector<Coords> &regs() const { return regBases; }
  const std::vector<Coords> &lanes() const { return laneBases; }
  const std::vector<Coords> &warps() const { return warpBases; }

  /// The coordinates of register `reg` of lane `lane` in warp `warp`.
  Coords apply(int64_t reg, int64_t lane, int64_t warp) const;
  /// Row-major index of `coords` in the shape.
  int64_t linearIndex(const Coords &coords) const;
  /// The part of the coordinates that register bits alone contribute.
  Coords regPart(int64_t reg) const { return combine(regBases, reg); }

  /// True when every element of the shape is held by some thread.
  bool coversShape() const;
  /// How many consecutive registers hold consecutive elements along the last
  /// dimension (the low register bits step 1, 2, 4, ... there), capped at 16
  /// bytes of `elementBits`-bit elements: the width of a vector access. 1
  /// when fewer than 4 bytes would move together.
  int64_t vectorWidth(unsigned elementBits) const;

  /// Which copy of each element a write that must happen once (an atomic
  /// add) uses: threads whose lane has a bit of `laneMask` set (or warp a bit
  /// of `warpMask`) hold copies of other threads' elements, and register r
  /// with `repeatedReg[r]` repeats an earlier register of its thread.
  struct SingleCopy {
    int64_t laneMask = 0, warpMask = 0;
    std::vector<bool> repeatedReg;
  };
  /// The single copy of every element, or nullopt when copies are not
  /// picked out that way (a lane or warp basis repeating another's elements
  /// without being zero).
  std::optional<SingleCopy> singleCopy() const;

  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }
  std::string str() const;

private:
  Coords combine(const std::vector<Coords> &bases, int64_t bits) const;

  std::vector<int64_t> dims;
  std::vector<Coords> regBases, laneBases, warpBases;
};

/// How a reduction along `axis` of a tile placed by `layout` runs, in three
/// steps: each thread combines groups of its registers (one group per
/// register of the result, which is placed by `layout.slice(axis)`, in its
/// register order; each group in register order), then butterfly exchanges
/// over `laneBits`, then partial results of the warps along `warpBits` meet.
struct ReductionPlan {
  std::vector<std::vector<int64_t>> registerGroups;
  std::vector<int64_t> laneBits, warpBits;
};

/// The plan, or nullopt (with "mixed register bases", "mixed lane bases" or
/// "mixed warp bases" in `whyNot`) when a basis walks along the axis and
/// another dimension at once.
std::optional<ReductionPlan> planReduction(const LinearLayout &layout, int64_t axis,
                                           std::string *whyNot = nullptr);

/// For a move from `src` to `dst` (same number of lanes and warps) where
/// destination coordinates map to source coordinates through `map`: the
/// source register each destination register reads when every thread already
/// holds what it needs, identically for all threads; nullopt when data must
/// cross threads.
template <typename Map>
std::optional<std::vector<int64_t>> registerLocalMove(const LinearLayout &src,
                                                      const LinearLayout &dst, Map map) {
  if (src.numLanes() != dst.numLanes() || src.numWarps() != dst.numWarps())
    return std::nullopt;
  std::vector<int64_t> from(dst.numRegs(), -1);
  auto servesEveryThread = [&](int64_t r, int64_t s) {
    for (int64_t w = 0; w < dst.numWarps(); ++w)
      for (int64_t l = 0; l < dst.numLanes(); ++l)
        if (src.apply(s, l, w) != map(dst.apply(r, l, w)))
          return false;
    return true;
  };
  for (int64_t r = 0; r < dst.numRegs(); ++r) {
    Coords want = map(dst.apply(r, 0, 0));
    for (int64_t s = 0; s < src.numRegs() && from[r] < 0; ++s)
      if (src.apply(s, 0, 0) == want && servesEveryThread(r, s))
        from[r] = s;
    if (from[r] < 0)
      return std::nullopt;
  }
  return from;
}

} // namespace tilec

#endif // TILEC_LAYOUT_LINEARLAYOUT_H
