//===- LinearLayoutTest.cpp - layouts, checked element by element ---------===//
//
// The mma fragment layouts are compared with the tables of the PTX ISA for
// mma.sync m16n8k16 and wgmma m64nNk16 (every lane, every register); blocked
// layouts are checked
// to place every element; the moves that FlashAttention relies on (P from
// the accumulator straight into operand A, row statistics broadcast back
// onto the accumulator) are checked to be register-local.
//
//===----------------------------------------------------------------------===//

#include "tilec/Layout/LinearLayout.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace tilec;

namespace {

TEST(LinearLayout, MmaAccumulatorMatchesPtxFragmentTable) {
  // PTX ISA, "Matrix Fragments for mma.m16n8k16" (f32 accumulator):
  // c_i: row = groupID + 8 * (i >= 2), col = 2 * threadID_in_group + (i & 1).
  for (int64_t wm : {1, 2, 4})
    for (int64_t wn : {1, 2}) {
      LinearLayout acc = LinearLayout::mmaAccumulator(16 * wm, 8 * wn, wm, wn);
      ASSERT_EQ(acc.numRegs(), 4);
      ASSERT_EQ(acc.numWarps(), wm * wn);
      for (int64_t w = 0; w < wm * wn; ++w)
        for (int64_t lane = 0; lane < 32; ++lane)
          for (int64_t i = 0; i < 4; ++i) {
            int64_t group = lane / 4, inGroup = lane % 4;
            Coords want = {16 * (w % wm) + group + 8 * (i / 2), 8 * (w / wm) + 2 * inGroup + i % 2};
            EXPECT_EQ(acc.apply(i, lane, w), want) << "lane " << lane << " reg " << i;
          }
      EXPECT_TRUE(acc.coversShape());
    }
}

TEST(LinearLayout, FourWarpAccumulatorIsTheWgmmaFragment) {
  // The wgmma path (sm_90a) keeps mma.sync's accumulator layout: with 4 warps
  // along M it must be wgmma's m64nN fragment in each 64-row half, registers
  // of half h after those of half h - 1. PTX ISA, wgmma D fragment: register
  // i of thread t holds row 16 (t / 32) + (t % 32) / 4 + 8 ((i % 4) / 2),
  // column 8 (i / 4) + 2 (t % 4) + i % 2.
  for (int64_t m : {64, 128, 256})
    for (int64_t n : {32, 64, 128}) {
      LinearLayout acc = LinearLayout::mmaAccumulator(m, n, 4, 1);
      int64_t perHalf = n / 2;
      ASSERT_EQ(acc.numRegs(), perHalf * (m / 64));
      for (int64_t reg = 0; reg < acc.numRegs(); ++reg)
        for (int64_t t = 0; t < 128; ++t) {
          int64_t half = reg / perHalf, i = reg % perHalf;
          Coords want = {64 * half + 16 * (t / 32) + (t % 32) / 4 + 8 * ((i % 4) / 2),
                         8 * (i / 4) + 2 * (t % 4) + i % 2};
          EXPECT_EQ(acc.apply(reg, t % 32, t / 32), want)
              << m << "x" << n << " thread " << t << " reg " << reg;
        }
    }
}

TEST(LinearLayout, ColumnGroupsAreWgmmaFragmentsSideBySide) {
  // Warpgroup g of a wgmmaAccumulator with column groups: its M index is
  // g % warpgroupsM, its column block g / warpgroupsM, and within them
  // the PTX ISA's wgmma D fragment (as above) of an m64nN' wgmma with
  // N' = n / columnGroups, 64-row slabs after each other.
  for (int64_t groupsM : {1, 2})
    for (int64_t columns : {1, 2, 4})
      for (int64_t m : {64, 128})
        for (int64_t n : {64, 128, 256}) {
          if (m < 64 * groupsM)
            continue;
          LinearLayout acc = LinearLayout::wgmmaAccumulator(m, n, groupsM, columns);
          const int64_t block = n / columns, perSlab = block / 2;
          ASSERT_EQ(acc.numWarps(), 4 * groupsM * columns);
          ASSERT_EQ(acc.numRegs(), perSlab * (m / (64 * groupsM)));
          for (int64_t reg = 0; reg < acc.numRegs(); ++reg)
            for (int64_t t = 0; t < 128 * groupsM * columns; ++t) {
              int64_t g = t / 128, u = t % 128, slab = reg / perSlab, i = reg % perSlab;
              Coords want = {64 * (groupsM * slab + g % groupsM) + 16 * (u / 32) + (u % 32) / 4 +
                                 8 * ((i % 4) / 2),
                             block * (g / groupsM) + 8 * (i / 4) + 2 * (u % 4) + i % 2};
              EXPECT_EQ(acc.apply(reg, t % 32, t / 32), want)
                  << m << "x" << n << " [" << groupsM << ", " << columns << "] thread " << t
                  << " reg " << reg;
            }
          EXPECT_TRUE(acc.coversShape());
          if (columns == 1)
            EXPECT_EQ(acc, LinearLayout::mmaAccumulator(m, n, 4 * groupsM, 1));
        }
}

TEST(LinearLayout, StMatrixAddressesFollowTheFragments) {
  // local_store `matrix` (MemoryToNVVM storeByMatrix): register pair k is
  // 8x8 block k; stmatrix.x4 number g stores blocks 4g..4g+3, matrix i from
  // each thread's word 4g + i, thread t holding row t / 4, columns
  // 2 (t % 4) and + 1 of it (PTX ISA, stmatrix fragment), and lane 8i + j
  // giving the address of the matrix's row j. The lowering computes that
  // row's start as the group's register part XOR the warp's part XOR
  // (lane % 8, 0) XOR register bases 1 and 2 picked by lane bits 3 and 4:
  // it must be where the layout puts those elements.
  auto xorCoords = [](Coords a, const Coords &b) {
    for (size_t d = 0; d < a.size(); ++d)
      a[d] ^= b[d];
    return a;
  };
  for (const LinearLayout &acc :
       {LinearLayout::mmaAccumulator(128, 64, 8, 1), LinearLayout::mmaAccumulator(64, 64, 4, 1),
        LinearLayout::wgmmaAccumulator(64, 128, 1, 2),
        LinearLayout::wgmmaAccumulator(128, 64, 2, 1),
        // The attention forward's O at d = 128 and 256 (tilegpu-tma-stores).
        LinearLayout::wgmmaAccumulator(128, 128, 2, 1),
        LinearLayout::wgmmaAccumulator(128, 256, 2, 1)}) {
    const std::vector<Coords> &regs = acc.regs();
    ASSERT_EQ(regs[0], (Coords{0, 1}));
    for (int64_t warp = 0; warp < acc.numWarps(); ++warp)
      for (int64_t group = 0; group * 8 < acc.numRegs(); ++group)
        for (int64_t i = 0; i < 4; ++i)
          for (int64_t j = 0; j < 8; ++j) {
            int64_t lane = 8 * i + j;
            Coords start = xorCoords(acc.regPart(8 * group), acc.apply(0, 0, warp));
            start = xorCoords(start, Coords{lane % 8, 0});
            if ((lane >> 3) & 1)
              start = xorCoords(start, regs[1]);
            if ((lane >> 4) & 1)
              start = xorCoords(start, regs[2]);
            for (int64_t q = 0; q < 4; ++q)
              for (int64_t e = 0; e < 2; ++e) {
                Coords want = {start[0], start[1] + 2 * q + e};
                EXPECT_EQ(acc.apply(8 * group + 2 * i + e, 4 * j + q, warp), want)
                    << acc.str() << " warp " << warp << " group " << group << " matrix " << i
                    << " row " << j;
              }
          }
  }
}

TEST(LinearLayout, MmaOperandAMatchesPtxFragmentTable) {
  // a_i (16-bit): row = groupID + 8 * ((i / 2) & 1), col = 2 * threadID_in_group + (i & 1) + 8 * (i >= 4).
  LinearLayout a = LinearLayout::mmaOperandA(16, 16, 1, 1);
  ASSERT_EQ(a.numRegs(), 8);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t i = 0; i < 8; ++i) {
      int64_t group = lane / 4, inGroup = lane % 4;
      Coords want = {group + 8 * ((i / 2) % 2), 2 * inGroup + i % 2 + 8 * (i / 4)};
      EXPECT_EQ(a.apply(i, lane, 0), want) << "lane " << lane << " reg " << i;
    }
  EXPECT_TRUE(a.coversShape());
}

TEST(LinearLayout, MmaOperandBMatchesPtxFragmentTable) {
  // b_i (16-bit): row (k) = 2 * threadID_in_group + (i & 1) + 8 * (i >= 2), col (n) = groupID.
  LinearLayout b = LinearLayout::mmaOperandB(16, 8, 1, 1);
  ASSERT_EQ(b.numRegs(), 4);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t i = 0; i < 4; ++i) {
      int64_t group = lane / 4, inGroup = lane % 4;
      Coords want = {2 * inGroup + i % 2 + 8 * (i / 2), group};
      EXPECT_EQ(b.apply(i, lane, 0), want) << "lane " << lane << " reg " << i;
    }
  EXPECT_TRUE(b.coversShape());
}

TEST(LinearLayout, OperandsReplicateAcrossTheOtherWarpDimension) {
  LinearLayout a = LinearLayout::mmaOperandA(64, 32, 2, 2);
  LinearLayout b = LinearLayout::mmaOperandB(32, 16, 2, 2);
  // Warps 0 and 2 differ only along N: same A rows; warps 0 and 1 only along M: same B columns.
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < a.numRegs(); ++r)
      EXPECT_EQ(a.apply(r, lane, 0), a.apply(r, lane, 2));
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < b.numRegs(); ++r)
      EXPECT_EQ(b.apply(r, lane, 0), b.apply(r, lane, 1));
  EXPECT_TRUE(a.coversShape());
  EXPECT_TRUE(b.coversShape());
}

TEST(LinearLayout, SingleCopyPicksEachElementOnce) {
  // No copies: every thread and register writes.
  LinearLayout acc = LinearLayout::mmaAccumulator(64, 32, 4, 1);
  auto all = acc.singleCopy();
  ASSERT_TRUE(all);
  EXPECT_EQ(all->laneMask, 0);
  EXPECT_EQ(all->warpMask, 0);
  EXPECT_EQ(std::count(all->repeatedReg.begin(), all->repeatedReg.end(), true), 0);
  // An A operand on 2x2 warps: warp bit 1 (the N warps) repeats the rows.
  LinearLayout a = LinearLayout::mmaOperandA(64, 32, 2, 2);
  auto rows = a.singleCopy();
  ASSERT_TRUE(rows);
  EXPECT_EQ(rows->warpMask, 2);
  // Lanes 4 apart, and a register, repeat one another's elements.
  LinearLayout small({16}, {{0}}, {{1}, {2}, {0}, {4}, {8}}, {});
  auto once = small.singleCopy();
  ASSERT_TRUE(once);
  EXPECT_EQ(once->laneMask, 4);
  EXPECT_EQ(once->repeatedReg, (std::vector<bool>{false, true}));
  // Copies through a nonzero basis (lanes 1 and 2 both step by 1) cannot
  // be picked by masks.
  LinearLayout dependent({16}, {}, {{1}, {1}, {2}, {4}, {8}}, {});
  EXPECT_FALSE(dependent.singleCopy());
}

TEST(LinearLayout, BlockedPlacesEveryElementExactlyOnceWhenLargeEnough) {
  for (std::vector<int64_t> shape :
       {std::vector<int64_t>{1024}, {128, 64}, {64, 128}, {16, 16}, {1, 128, 64}, {256, 8}})
    for (int64_t warps : {1, 4, 8})
      for (int64_t vector : {1, 4, 8}) {
        LinearLayout l = LinearLayout::defaultBlocked(shape, warps, vector);
        ASSERT_EQ(l.numLanes(), 32);
        ASSERT_EQ(l.numWarps(), warps);
        ASSERT_TRUE(l.coversShape()) << l.str();
        int64_t threads = 32 * warps;
        if (l.numElements() >= threads * vector) {
          // No replication: each element has exactly one owner.
          std::vector<int> owners(l.numElements(), 0);
          for (int64_t w = 0; w < warps; ++w)
            for (int64_t lane = 0; lane < 32; ++lane)
              for (int64_t r = 0; r < l.numRegs(); ++r)
                ++owners[l.linearIndex(l.apply(r, lane, w))];
          for (int o : owners)
            ASSERT_EQ(o, 1) << l.str();
        }
      }
}

TEST(LinearLayout, BlockedKeepsVectorsContiguous) {
  LinearLayout l = LinearLayout::defaultBlocked({64, 64}, 4, 8);
  for (int64_t lane = 0; lane < 32; ++lane)
    for (int64_t r = 0; r < 8; ++r) {
      Coords first = l.apply(0, lane, 0), c = l.apply(r, lane, 0);
      EXPECT_EQ(c[0], first[0]);
      EXPECT_EQ(c[1], first[1] + r) << "registers 0-7 are 8 consecutive columns";
    }
}

TEST(LinearLayout, SmallTilesReplicate) {
  LinearLayout l = LinearLayout::defaultBlocked({16}, 4, 1);
  EXPECT_TRUE(l.coversShape());
  EXPECT_EQ(l.apply(0, 3, 0), l.apply(0, 3, 2)) << "warps beyond the tile replicate";
}

TEST(LinearLayout, PFromTheAccumulatorIsOperandAWithoutMovingData) {
  // FlashAttention-2's trick: S = Q·Kᵀ in the accumulator layout feeds P·V as
  // operand A from the same registers.
  for (int64_t m : {64, 128})
    for (int64_t n : {32, 64, 128}) {
      int64_t wm = m / 16 >= 4 ? 4 : m / 16;
      LinearLayout acc = LinearLayout::mmaAccumulator(m, n, wm, 1);
      LinearLayout a = LinearLayout::mmaOperandA(m, n, wm, 1);
      auto move = registerLocalMove(acc, a, [](const Coords &c) { return c; });
      ASSERT_TRUE(move.has_value()) << m << "x" << n;
      EXPECT_EQ(static_cast<int64_t>(move->size()), a.numRegs());
    }
}

TEST(LinearLayout, RowStatisticsBroadcastBackInRegisters) {
  LinearLayout acc = LinearLayout::mmaAccumulator(128, 64, 4, 1);
  LinearLayout rows = acc.slice(1);
  EXPECT_EQ(rows.shape(), (std::vector<int64_t>{128}));
  EXPECT_EQ(rows.numRegs(), 4) << "rows g, g+8 of two m16 tiles per warp (128 rows, 4 warps)";
  LinearLayout column = rows.expandDims(1);
  auto move = registerLocalMove(column, acc, [](Coords c) {
    c[1] = 0;
    return c;
  });
  EXPECT_TRUE(move.has_value());
  // Lanes of a quad hold the same row: the slice replicates over lanes 0-1.
  EXPECT_EQ(rows.apply(0, 0, 0), rows.apply(0, 3, 0));
}

TEST(LinearLayout, BlockedToOperandNeedsAnExchange) {
  LinearLayout blocked = LinearLayout::defaultBlocked({64, 64}, 4, 8);
  LinearLayout b = LinearLayout::mmaOperandB(64, 64, 4, 1);
  EXPECT_FALSE(registerLocalMove(blocked, b, [](const Coords &c) { return c; }).has_value());
}

TEST(LinearLayout, TransposeTwiceIsIdentity) {
  LinearLayout l = LinearLayout::defaultBlocked({32, 64}, 4, 4);
  EXPECT_EQ(l.transpose({1, 0}).transpose({1, 0}), l);
  LinearLayout t = l.transpose({1, 0});
  for (int64_t lane = 0; lane < 32; ++lane) {
    Coords c = l.apply(3, lane, 1), ct = t.apply(3, lane, 1);
    EXPECT_EQ(ct, (Coords{c[1], c[0]}));
  }
}

/// The reduction plan, checked against its meaning: combining each group,
/// then exchanging over its lane bits, gives every thread the reduced value
/// of each of its result registers (a row sum of the wgmma accumulator,
/// computed element by element).
TEST(LinearLayout, ReductionPlanSumsEveryRow) {
  LinearLayout acc = LinearLayout::mmaAccumulator(64, 64, 4, 1);
  std::optional<ReductionPlan> plan = planReduction(acc, 1);
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->registerGroups.size(), 2u);
  EXPECT_EQ(plan->laneBits, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(plan->warpBits.empty());
  LinearLayout rows = acc.slice(1);
  ASSERT_EQ(static_cast<size_t>(rows.numRegs()), plan->registerGroups.size());
  auto value = [](const Coords &c) { return 100.0 * c[0] + c[1]; };
  for (int64_t warp = 0; warp < 4; ++warp)
    for (int64_t lane = 0; lane < 32; ++lane)
      for (size_t r = 0; r < plan->registerGroups.size(); ++r) {
        // This thread's partial sum, then the lanes it exchanges with.
        double sum = 0;
        for (int64_t mate = 0; mate < 32; ++mate) {
          bool exchanged = true;
          for (int64_t bit = 0; bit < 5; ++bit)
            if (((mate ^ lane) >> bit & 1) && !std::count(plan->laneBits.begin(),
                                                         plan->laneBits.end(), bit))
              exchanged = false;
          if (!exchanged)
            continue;
          for (int64_t reg : plan->registerGroups[r])
            sum += value(acc.apply(reg, mate, warp));
        }
        int64_t row = rows.apply(static_cast<int64_t>(r), lane, warp)[0];
        double want = 0;
        for (int64_t col = 0; col < 64; ++col)
          want += value({row, col});
        EXPECT_EQ(sum, want) << "warp " << warp << " lane " << lane << " register " << r;
      }
}

TEST(LinearLayout, ReductionPlanRefusesMixedBases) {
  // A register basis that walks along both dimensions.
  LinearLayout mixed({4, 4}, {{1, 1}, {2, 0}, {0, 2}}, {{0, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}},
                     {});
  std::string why;
  EXPECT_FALSE(planReduction(mixed, 1, &why));
  EXPECT_EQ(why, "mixed register bases");
}

} // namespace
