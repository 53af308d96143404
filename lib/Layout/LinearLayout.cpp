//===- LinearLayout.cpp - layouts as linear maps of thread bits -----------===//

#include "tilec/Layout/LinearLayout.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace tilec {

LinearLayout::LinearLayout(std::vector<int64_t> shape, std::vector<Coords> regBases,
                           std::vector<Coords> laneBases, std::vector<Coords> warpBases)
    : dims(std::move(shape)), regBases(std::move(regBases)), laneBases(std::move(laneBases)),
      warpBases(std::move(warpBases)) {}

/// Appends bases for `count` (a power of two) consecutive positions along
/// `dim`, starting at stride `stride`; positions past the shape replicate.
static void appendAlong(std::vector<Coords> &bases, int64_t rank, int64_t dim, int64_t count,
                        int64_t &stride, int64_t extent) {
  for (int64_t i = 1; i < count; i *= 2) {
    Coords basis(rank, 0);
    if (stride < extent)
      basis[dim] = stride;
    bases.push_back(basis);
    stride *= 2;
  }
}

LinearLayout LinearLayout::blocked(const std::vector<int64_t> &shape,
                                   const std::vector<int64_t> &sizePerThread,
                                   const std::vector<int64_t> &threadsPerWarp,
                                   const std::vector<int64_t> &warpsPerCTA,
                                   const std::vector<int64_t> &order) {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<Coords> regs, lanes, warps;
  std::vector<int64_t> stride(rank, 1);
  for (int64_t d : order)
    appendAlong(regs, rank, d, sizePerThread[d], stride[d], shape[d]);
  for (int64_t d : order)
    appendAlong(lanes, rank, d, threadsPerWarp[d], stride[d], shape[d]);
  for (int64_t d : order)
    appendAlong(warps, rank, d, warpsPerCTA[d], stride[d], shape[d]);
  // Repeat the pattern in registers to cover the rest of the shape.
  for (int64_t d : order)
    while (stride[d] < shape[d]) {
      Coords basis(rank, 0);
      basis[d] = stride[d];
      regs.push_back(basis);
      stride[d] *= 2;
    }
  return LinearLayout(shape, regs, lanes, warps);
}

LinearLayout LinearLayout::defaultBlocked(const std::vector<int64_t> &shape, int64_t numWarps,
                                          int64_t vector) {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> size(rank, 1), threads(rank, 1), warps(rank, 1), order;
  for (int64_t d = rank - 1; d >= 0; --d)
    order.push_back(d);
  int64_t last = rank - 1;
  size[last] = std::min(vector, shape[last]);
  // Lanes fill the last dimension first, then the ones before it.
  int64_t lanesLeft = 32;
  for (int64_t d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / size[d]);
    int64_t take = std::min(lanesLeft, room);
    threads[d] = take;
    lanesLeft /= take;
  }
  threads[order.back()] *= lanesLeft; // the rest replicate along the outermost dimension
  // Warps go along the first dimension, then the next ones.
  int64_t warpsLeft = numWarps;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t room = std::max<int64_t>(1, shape[d] / (size[d] * threads[d]));
    int64_t take = std::min(warpsLeft, room);
    warps[d] = take;
    warpsLeft /= take;
  }
  warps[0] *= warpsLeft;
  return blocked(shape, size, threads, warps, order);
}

/// The mma.sync m16n8 thread arrangement shared by the accumulator and the
/// operands: lanes 0-1 pick a pair of columns (or k), lanes 2-4 pick the row
/// within 8.
LinearLayout LinearLayout::mmaAccumulator(int64_t m, int64_t n, int64_t warpsM, int64_t warpsN) {
  std::vector<Coords> regs = {{0, 1}, {8, 0}};
  std::vector<Coords> lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coords> warps;
  int64_t rowStride = 16, colStride = 8;
  appendAlong(warps, 2, 0, warpsM, rowStride, m);
  appendAlong(warps, 2, 1, warpsN, colStride, n);
  // Repeats: along N first (consecutive registers walk the row), then M.
  for (; colStride < n; colStride *= 2)
    regs.push_back({0, colStride});
  for (; rowStride < m; rowStride *= 2)
    regs.push_back({rowStride, 0});
  return LinearLayout({m, n}, regs, lanes, warps);
}

LinearLayout LinearLayout::wgmmaAccumulator(int64_t m, int64_t n, int64_t warpgroupsM,
                                            int64_t columnGroups) {
  std::vector<Coords> regs = {{0, 1}, {8, 0}};
  std::vector<Coords> lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coords> warps;
  int64_t rowStride = 16, blockColumns = n / columnGroups, blockStride = blockColumns;
  appendAlong(warps, 2, 0, 4 * warpgroupsM, rowStride, m);
  appendAlong(warps, 2, 1, columnGroups, blockStride, n);
  // Repeats: along a block's columns first, then M (as mmaAccumulator).
  for (int64_t colStride = 8; colStride < blockColumns; colStride *= 2)
    regs.push_back({0, colStride});
  for (; rowStride < m; rowStride *= 2)
    regs.push_back({rowStride, 0});
  return LinearLayout({m, n}, regs, lanes, warps);
}

LinearLayout LinearLayout::mmaOperandA(int64_t m, int64_t k, int64_t warpsM, int64_t warpsN) {
  std::vector<Coords> regs = {{0, 1}, {8, 0}, {0, 8}};
  std::vector<Coords> lanes = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  std::vector<Coords> warps;
  int64_t rowStride = 16, none = 1;
  appendAlong(warps, 2, 0, warpsM, rowStride, m);
  appendAlong(warps, 2, 0, warpsN, none, 0); // replicated along N
  for (int64_t kStride = 16; kStride < k; kStride *= 2)
    regs.push_back({0, kStride});
  for (; rowStride < m; rowStride *= 2)
    regs.push_back({rowStride, 0});
  return LinearLayout({m, k}, regs, lanes, warps);
}

LinearLayout LinearLayout::mmaOperandB(int64_t k, int64_t n, int64_t warpsM, int64_t warpsN) {
  std::vector<Coords> regs = {{1, 0}, {8, 0}};
  std::vector<Coords> lanes = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  std::vector<Coords> warps;
  int64_t colStride = 8, none = 1;
  appendAlong(warps, 2, 1, warpsM, none, 0); // replicated along M
  appendAlong(warps, 2, 1, warpsN, colStride, n);
  for (int64_t kStride = 16; kStride < k; kStride *= 2)
    regs.push_back({kStride, 0});
  for (; colStride < n; colStride *= 2)
    regs.push_back({0, colStride});
  return LinearLayout({k, n}, regs, lanes, warps);
}

LinearLayout LinearLayout::replicatedOver(int64_t warps) const {
  std::vector<Coords> warpBasesOut = warpBases;
  while ((int64_t{1} << warpBasesOut.size()) < warps)
    warpBasesOut.push_back(Coords(dims.size(), 0));
  return LinearLayout(dims, regBases, laneBases, warpBasesOut);
}

static Coords dropDim(const Coords &c, int64_t dim) {
  Coords out;
  for (int64_t i = 0; i < static_cast<int64_t>(c.size()); ++i)
    if (i != dim)
      out.push_back(c[i]);
  return out;
}

static bool isZero(const Coords &c) {
  for (int64_t x : c)
    if (x)
      return false;
  return true;
}

LinearLayout LinearLayout::slice(int64_t dim) const {
  std::vector<int64_t> shape = dropDim(dims, dim);
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : regBases)
    if (!isZero(dropDim(b, dim)))
      regs.push_back(dropDim(b, dim));
  for (const Coords &b : laneBases)
    lanes.push_back(dropDim(b, dim));
  for (const Coords &b : warpBases)
    warps.push_back(dropDim(b, dim));
  return LinearLayout(shape, regs, lanes, warps);
}

LinearLayout LinearLayout::collapse(const std::vector<int64_t> &collapsed) const {
  auto zero = [&](Coords c) {
    for (int64_t d : collapsed)
      c[d] = 0;
    return c;
  };
  std::vector<int64_t> shape = dims;
  for (int64_t d : collapsed)
    shape[d] = 1;
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : regBases) regs.push_back(zero(b));
  for (const Coords &b : laneBases) lanes.push_back(zero(b));
  for (const Coords &b : warpBases) warps.push_back(zero(b));
  return LinearLayout(shape, regs, lanes, warps);
}

LinearLayout LinearLayout::dropUnitDim(int64_t dim) const {
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : regBases) regs.push_back(dropDim(b, dim));
  for (const Coords &b : laneBases) lanes.push_back(dropDim(b, dim));
  for (const Coords &b : warpBases) warps.push_back(dropDim(b, dim));
  return LinearLayout(dropDim(dims, dim), regs, lanes, warps);
}

LinearLayout LinearLayout::expandDims(int64_t dim) const {
  auto insert = [dim](Coords c) {
    c.insert(c.begin() + dim, 0);
    return c;
  };
  std::vector<int64_t> shape = insert(dims);
  shape[dim] = 1;
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : regBases) regs.push_back(insert(b));
  for (const Coords &b : laneBases) lanes.push_back(insert(b));
  for (const Coords &b : warpBases) warps.push_back(insert(b));
  return LinearLayout(shape, regs, lanes, warps);
}

LinearLayout LinearLayout::transpose(const std::vector<int64_t> &order) const {
  auto permute = [&](const Coords &c) {
    Coords out;
    for (int64_t d : order)
      out.push_back(c[d]);
    return out;
  };
  std::vector<Coords> regs, lanes, warps;
  for (const Coords &b : regBases) regs.push_back(permute(b));
  for (const Coords &b : laneBases) lanes.push_back(permute(b));
  for (const Coords &b : warpBases) warps.push_back(permute(b));
  return LinearLayout(permute(dims), regs, lanes, warps);
}

int64_t LinearLayout::numElements() const {
  int64_t n = 1;
  for (int64_t d : dims)
    n *= d;
  return n;
}

Coords LinearLayout::combine(const std::vector<Coords> &bases, int64_t bits) const {
  Coords c(dims.size(), 0);
  for (size_t b = 0; b < bases.size(); ++b)
    if (bits >> b & 1)
      for (size_t d = 0; d < dims.size(); ++d)
        c[d] ^= bases[b][d];
  return c;
}

Coords LinearLayout::apply(int64_t reg, int64_t lane, int64_t warp) const {
  Coords c = combine(regBases, reg);
  Coords l = combine(laneBases, lane), w = combine(warpBases, warp);
  for (size_t d = 0; d < dims.size(); ++d)
    c[d] ^= l[d] ^ w[d];
  return c;
}

int64_t LinearLayout::linearIndex(const Coords &coords) const {
  int64_t index = 0;
  for (size_t d = 0; d < dims.size(); ++d)
    index = index * dims[d] + coords[d];
  return index;
}

int64_t LinearLayout::vectorWidth(unsigned elementBits) const {
  int64_t last = rank() - 1, width = 1;
  for (const Coords &basis : regBases) {
    Coords step(rank(), 0);
    step[last] = width;
    if (basis != step || 2 * width * elementBits > 128)
      break;
    width *= 2;
  }
  return width * elementBits >= 32 ? width : 1;
}

std::optional<LinearLayout::SingleCopy> LinearLayout::singleCopy() const {
  SingleCopy copy;
  Coords zero(rank(), 0);
  for (size_t i = 0; i < laneBases.size(); ++i)
    if (laneBases[i] == zero)
      copy.laneMask |= int64_t{1} << i;
  for (size_t i = 0; i < warpBases.size(); ++i)
    if (warpBases[i] == zero)
      copy.warpMask |= int64_t{1} << i;
  std::set<Coords> seen;
  for (int64_t r = 0; r < numRegs(); ++r)
    copy.repeatedReg.push_back(!seen.insert(regPart(r)).second);
  // Every element exactly once among the copies picked.
  std::vector<int> count(numElements(), 0);
  for (int64_t w = 0; w < numWarps(); ++w)
    for (int64_t l = 0; l < numLanes(); ++l)
      for (int64_t r = 0; r < numRegs(); ++r) {
        if ((w & copy.warpMask) || (l & copy.laneMask) || copy.repeatedReg[r])
          continue;
        Coords c = apply(r, l, w);
        for (size_t d = 0; d < dims.size(); ++d)
          if (c[d] < 0 || c[d] >= dims[d])
            return std::nullopt;
        ++count[linearIndex(c)];
      }
  if (std::any_of(count.begin(), count.end(), [](int n) { return n != 1; }))
    return std::nullopt;
  return copy;
}

bool LinearLayout::coversShape() const {
  std::vector<bool> seen(numElements(), false);
  for (int64_t w = 0; w < numWarps(); ++w)
    for (int64_t l = 0; l < numLanes(); ++l)
      for (int64_t r = 0; r < numRegs(); ++r) {
        Coords c = apply(r, l, w);
        for (size_t d = 0; d < dims.size(); ++d)
          if (c[d] < 0 || c[d] >= dims[d])
            return false;
        seen[linearIndex(c)] = true;
      }
  for (bool s : seen)
    if (!s)
      return false;
  return true;
}

static bool onlyAlong(const Coords &basis, int64_t axis) {
  for (int64_t d = 0; d < static_cast<int64_t>(basis.size()); ++d)
    if (d != axis && basis[d] != 0)
      return false;
  return basis[axis] != 0;
}

/// The bits of `bases` that walk along `axis`; nullopt when one of them
/// walks along another dimension as well.
static std::optional<std::vector<int64_t>> bitsAlong(const std::vector<Coords> &bases,
                                                     int64_t axis) {
  std::vector<int64_t> bits;
  for (size_t bit = 0; bit < bases.size(); ++bit) {
    if (bases[bit][axis] == 0)
      continue;
    if (!onlyAlong(bases[bit], axis))
      return std::nullopt;
    bits.push_back(static_cast<int64_t>(bit));
  }
  return bits;
}

std::optional<ReductionPlan> planReduction(const LinearLayout &layout, int64_t axis,
                                           std::string *whyNot) {
  auto fail = [&](const char *why) -> std::optional<ReductionPlan> {
    if (whyNot)
      *whyNot = why;
    return std::nullopt;
  };
  // Register bits along the axis are combined; the others (but replicas)
  // index the result's registers.
  std::vector<int64_t> axisBits, keptBits;
  for (size_t bit = 0; bit < layout.regs().size(); ++bit) {
    const Coords &basis = layout.regs()[bit];
    if (onlyAlong(basis, axis))
      axisBits.push_back(static_cast<int64_t>(bit));
    else if (basis[axis] != 0)
      return fail("mixed register bases");
    else if (std::any_of(basis.begin(), basis.end(), [](int64_t x) { return x != 0; }))
      keptBits.push_back(static_cast<int64_t>(bit));
  }
  ReductionPlan plan;
  for (int64_t j = 0; j < (int64_t{1} << keptBits.size()); ++j) {
    int64_t base = 0;
    for (size_t i = 0; i < keptBits.size(); ++i)
      if (j >> i & 1)
        base |= int64_t{1} << keptBits[i];
    std::vector<int64_t> group;
    for (int64_t c = 0; c < (int64_t{1} << axisBits.size()); ++c) {
      int64_t reg = base;
      for (size_t i = 0; i < axisBits.size(); ++i)
        if (c >> i & 1)
          reg |= int64_t{1} << axisBits[i];
      group.push_back(reg);
    }
    plan.registerGroups.push_back(std::move(group));
  }
  std::optional<std::vector<int64_t>> lanes = bitsAlong(layout.lanes(), axis);
  if (!lanes)
    return fail("mixed lane bases");
  std::optional<std::vector<int64_t>> warps = bitsAlong(layout.warps(), axis);
  if (!warps)
    return fail("mixed warp bases");
  plan.laneBits = std::move(*lanes);
  plan.warpBits = std::move(*warps);
  return plan;
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  return dims == other.dims && regBases == other.regBases && laneBases == other.laneBases &&
         warpBases == other.warpBases;
}

std::string LinearLayout::str() const {
  std::ostringstream os;
  auto list = [&](const char *name, const std::vector<Coords> &bases) {
    os << name << " = [";
    for (size_t i = 0; i < bases.size(); ++i) {
      os << (i ? ", " : "") << "[";
      for (size_t d = 0; d < bases[i].size(); ++d)
        os << (d ? ", " : "") << bases[i][d];
      os << "]";
    }
    os << "]";
  };
  os << "<";
  for (size_t d = 0; d < dims.size(); ++d)
    os << (d ? "x" : "") << dims[d];
  os << ", ";
  list("reg", regBases);
  os << ", ";
  list("lane", laneBases);
  os << ", ";
  list("warp", warpBases);
  os << ">";
  return os.str();
}

} // namespace tilec
