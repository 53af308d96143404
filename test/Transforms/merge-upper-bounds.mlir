// RUN: tilec-opt %s --tile-merge-upper-bounds --canonicalize | FileCheck %s

// The causal diagonal step's mask: keys before seq_k (%n, a bound every row
// shares) and key <= query + offset (a bound per row). One compare per
// element against one bound per row: y + 1 where y < n, else n.
// CHECK-LABEL: func.func @causal
// CHECK-SAME: (%[[S:[^:]+]]: tensor<16x8xf32>, %[[COLS:[^:]+]]: tensor<8xi32>, %[[ROWS:[^:]+]]: tensor<16x1xi32>, %[[N:[^:]+]]: i32)
// CHECK: %[[C:.+]] = tile.expand_dims %[[COLS]] axis = 0
// CHECK: %[[CB:.+]] = tile.broadcast %[[C]] : tensor<1x8xi32> -> tensor<16x8xi32>
// CHECK: %[[X:.+]] = tile.splat %[[N]] : tensor<16x1xi32>
// CHECK: %[[BELOW:.+]] = arith.cmpi slt, %[[ROWS]], %[[X]] : tensor<16x1xi32>
// CHECK: %[[NEXT:.+]] = arith.addi %[[ROWS]], %{{.+}} : tensor<16x1xi32>
// CHECK: %[[BOUND:.+]] = arith.select %[[BELOW]], %[[NEXT]], %[[X]] : tensor<16x1xi1>, tensor<16x1xi32>
// CHECK: %[[BB:.+]] = tile.broadcast %[[BOUND]] : tensor<16x1xi32> -> tensor<16x8xi32>
// CHECK: %[[KEEP:.+]] = arith.cmpi slt, %[[CB]], %[[BB]] : tensor<16x8xi32>
// CHECK-NOT: arith.andi
// CHECK: arith.select %[[KEEP]], %[[S]]
func.func @causal(%s: tensor<16x8xf32>, %cols: tensor<8xi32>, %rows: tensor<16x1xi32>, %n: i32) -> tensor<16x8xf32> {
  %ninf = arith.constant dense<0xFF800000> : tensor<16x8xf32>
  %nv = tile.splat %n : tensor<8xi32>
  %inside = arith.cmpi slt, %cols, %nv : tensor<8xi32>
  %inside1 = tile.expand_dims %inside axis = 0 : tensor<8xi1> -> tensor<1x8xi1>
  %inside2 = tile.broadcast %inside1 : tensor<1x8xi1> -> tensor<16x8xi1>
  %c1 = tile.expand_dims %cols axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %c2 = tile.broadcast %c1 : tensor<1x8xi32> -> tensor<16x8xi32>
  %r2 = tile.broadcast %rows : tensor<16x1xi32> -> tensor<16x8xi32>
  %causal = arith.cmpi sle, %c2, %r2 : tensor<16x8xi32>
  %keep = arith.andi %inside2, %causal : tensor<16x8xi1>
  %out = arith.select %keep, %s, %ninf : tensor<16x8xi1>, tensor<16x8xf32>
  return %out : tensor<16x8xf32>
}

// A window's mask: the strict bound written the other way round (rows > c)
// merges by a minimum; the lower edge stays in the conjunction.
// CHECK-LABEL: func.func @window
// CHECK-SAME: (%[[COLS:[^:]+]]: tensor<8xi32>, %[[HI:[^:]+]]: tensor<16x1xi32>, %[[LO:[^:]+]]: tensor<16x1xi32>, %[[N:[^:]+]]: i32)
// CHECK: %[[X:.+]] = tile.splat %[[N]] : tensor<16x1xi32>
// CHECK: %[[BOUND:.+]] = arith.minsi %[[X]], %[[HI]]
// CHECK: %[[KEEP:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<16x8xi32>
// CHECK: %[[ALL:.+]] = arith.andi %[[KEEP]], %{{.+}} : tensor<16x8xi1>
// CHECK: return %[[ALL]]
func.func @window(%cols: tensor<8xi32>, %hi: tensor<16x1xi32>, %lo: tensor<16x1xi32>, %n: i32) -> tensor<16x8xi1> {
  %nv = tile.splat %n : tensor<8xi32>
  %inside = arith.cmpi slt, %cols, %nv : tensor<8xi32>
  %inside1 = tile.expand_dims %inside axis = 0 : tensor<8xi1> -> tensor<1x8xi1>
  %inside2 = tile.broadcast %inside1 : tensor<1x8xi1> -> tensor<16x8xi1>
  %c1 = tile.expand_dims %cols axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %c2 = tile.broadcast %c1 : tensor<1x8xi32> -> tensor<16x8xi32>
  %h2 = tile.broadcast %hi : tensor<16x1xi32> -> tensor<16x8xi32>
  %l2 = tile.broadcast %lo : tensor<16x1xi32> -> tensor<16x8xi32>
  %below = arith.cmpi sgt, %h2, %c2 : tensor<16x8xi32>
  %above = arith.cmpi sge, %c2, %l2 : tensor<16x8xi32>
  %edges = arith.andi %below, %above : tensor<16x8xi1>
  %keep = arith.andi %inside2, %edges : tensor<16x8xi1>
  return %keep : tensor<16x8xi1>
}

// Not merged: the index runs along the rows (a bound per column would cost
// more than it saves); different indices; a lower bound only.
// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-3: arith.andi
// CHECK-NOT: arith.minsi
func.func @unchanged(%keys: tensor<16xi32>, %cols: tensor<8xi32>, %other: tensor<8xi32>,
                     %q: tensor<1x8xi32>, %rows: tensor<16x1xi32>, %n: i32) -> (tensor<16x8xi1>, tensor<16x8xi1>, tensor<16x8xi1>) {
  // Keys along the rows (the backward's [keys, queries]).
  %kn = tile.splat %n : tensor<16xi32>
  %kin = arith.cmpi slt, %keys, %kn : tensor<16xi32>
  %kin1 = tile.expand_dims %kin axis = 1 : tensor<16xi1> -> tensor<16x1xi1>
  %kin2 = tile.broadcast %kin1 : tensor<16x1xi1> -> tensor<16x8xi1>
  %k1 = tile.expand_dims %keys axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %k2 = tile.broadcast %k1 : tensor<16x1xi32> -> tensor<16x8xi32>
  %q2 = tile.broadcast %q : tensor<1x8xi32> -> tensor<16x8xi32>
  %kc = arith.cmpi sle, %k2, %q2 : tensor<16x8xi32>
  %a = arith.andi %kin2, %kc : tensor<16x8xi1>
  // The shared bound on %cols, the other bound on %other.
  %nv = tile.splat %n : tensor<8xi32>
  %inside = arith.cmpi slt, %cols, %nv : tensor<8xi32>
  %inside1 = tile.expand_dims %inside axis = 0 : tensor<8xi1> -> tensor<1x8xi1>
  %inside2 = tile.broadcast %inside1 : tensor<1x8xi1> -> tensor<16x8xi1>
  %o1 = tile.expand_dims %other axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %o2 = tile.broadcast %o1 : tensor<1x8xi32> -> tensor<16x8xi32>
  %r2 = tile.broadcast %rows : tensor<16x1xi32> -> tensor<16x8xi32>
  %oc = arith.cmpi sle, %o2, %r2 : tensor<16x8xi32>
  %b = arith.andi %inside2, %oc : tensor<16x8xi1>
  // A lower bound beside the shared one.
  %c1 = tile.expand_dims %cols axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %c2 = tile.broadcast %c1 : tensor<1x8xi32> -> tensor<16x8xi32>
  %lc = arith.cmpi sge, %c2, %r2 : tensor<16x8xi32>
  %c = arith.andi %inside2, %lc : tensor<16x8xi1>
  return %a, %b, %c : tensor<16x8xi1>, tensor<16x8xi1>, tensor<16x8xi1>
}
