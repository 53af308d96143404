//===- LayoutAssignment.h - a layout for every tile of a kernel -*- C++ -*-===//
//
// Decides, for one kernel and a number of warps, how every tile value is
// spread over the threads of a block (a LinearLayout). The GPU lowering reads
// it; `tile-annotate-layouts` prints it. Rules, in program order:
//
// * tile.dot results (and what is carried into them) use the mma.sync m16n8
//   accumulator layout, warps along M first; its operands use the matching
//   operand layouts (the lowering moves data into them). For wgmma
//   (`warpgroupColumns`), a dot whose M takes whole warpgroups but fewer
//   than there are spreads the rest along N in column blocks instead
//   (LinearLayout::wgmmaAccumulator): each warpgroup runs one wgmma;
// * reductions produce the slice of their source's layout, expand_dims and
//   trans reorganize a layout without moving data, casts and elementwise
//   ops keep the layout of their first computed operand;
// * splats, constants and broadcasts take the layout of the computed value
//   they are combined with, so they cost nothing;
// * loop-carried values take the layout their loop body yields (iterated to a
//   fixed point); one that starts as a constant is tentative until then, and
//   so is an elementwise result computed only from tentative tiles (a
//   carried row sum scaled by a broadcast then takes what the body adds);
// * a block load that feeds (through trans / unit-dim reshapes) a dot
//   operand loads straight into the operand layout: no shared-memory exchange;
// * everything else gets a blocked layout with 16-byte vectors along the last
//   dimension.
//
//===----------------------------------------------------------------------===//

#ifndef TILEC_CONVERSION_LAYOUTASSIGNMENT_H
#define TILEC_CONVERSION_LAYOUTASSIGNMENT_H

#include "tilec/Layout/LinearLayout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace tilec {

namespace tile {
class DotOp;
} // namespace tile

class LayoutAssignment {
public:
  LayoutAssignment(mlir::func::FuncOp kernel, int64_t numWarps, bool warpgroupColumns = false)
      : kernel(kernel), numWarps(numWarps), warpgroupColumns(warpgroupColumns) {}

  /// Assigns every layout; reports unsupported shapes at the op and fails.
  mlir::LogicalResult run();

  /// The layout of a tile value (null for scalars).
  const LinearLayout *lookup(mlir::Value value) const;

  int64_t warps() const { return numWarps; }

  /// The warp grid (warpsM, warpsN) of a dot with an MxN result: warps along
  /// M first, then N; warps beyond warpsM·warpsN hold copies.
  std::pair<int64_t, int64_t> dotWarps(int64_t m, int64_t n) const;
  /// The layouts of a dot: accumulator (MxN), A (MxK), B (KxN); mma.sync's,
  /// or for wgmma column blocks (where `columnsOk`), the accumulator's (A:
  /// the same). The accumulator of `dot` takes column blocks only where its
  /// result only goes out to memory.
  LinearLayout dotAccumulator(int64_t m, int64_t n, bool columnsOk = false) const;
  LinearLayout dotAccumulator(tile::DotOp dot) const;
  LinearLayout dotOperandA(int64_t m, int64_t n, int64_t k) const;
  LinearLayout dotOperandB(int64_t m, int64_t n, int64_t k) const;
  LinearLayout defaultLayout(mlir::RankedTensorType type) const;

private:
  /// Tiles whose types already carry a distributed layout (tilegpu IR, after
  /// `convert-tile-to-tilegpu`) keep it: the layouts are read from the
  /// types. nullopt when no tile has one (then they are assigned).
  std::optional<mlir::LogicalResult> readEncodedLayouts();
  mlir::LogicalResult visitBlock(mlir::Block &block);
  mlir::LogicalResult visit(mlir::Operation *op);
  /// The layout a layout-free value (splat, constant, broadcast) should take
  /// from its users, if one of them has already decided; else, for a
  /// broadcast compared with another, what decides for the comparison.
  std::optional<LinearLayout> hintFromUsers(mlir::Value value, int depth = 0) const;
  void set(mlir::Value value, LinearLayout layout) { layouts[value] = std::move(layout); }
  /// Records whether `value`'s layout is still tentative (see `tentative`).
  void markTentative(mlir::Value value, bool isTentative) {
    if (isTentative)
      tentative.insert(value);
    else
      tentative.erase(value);
  }
  /// Walks back from a dot operand through trans and unit-dim reshapes to the
  /// block load that produces it, and asks that load to produce `layout`
  /// directly, so the operand needs no exchange through shared memory.
  void anchorToLoad(mlir::Value operand, const LinearLayout &layout);

  mlir::func::FuncOp kernel;
  int64_t numWarps;
  /// Dots that fill whole warpgroups along M, but not all of them, put the
  /// rest along N in column blocks (wgmma on sm_90a).
  bool warpgroupColumns;
  llvm::DenseMap<mlir::Value, LinearLayout> layouts;
  llvm::DenseMap<mlir::Value, LinearLayout> loadAnchors;
  /// Loop-carried values that start as constants, and elementwise results
  /// computed only from such values (and layout-free ones): their layout is
  /// decided by what the loop body makes of them, so they do not impose
  /// theirs.
  llvm::DenseSet<mlir::Value> tentative;
};

} // namespace tilec

#endif // TILEC_CONVERSION_LAYOUTASSIGNMENT_H
