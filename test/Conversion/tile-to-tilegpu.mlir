// Layout assignment as a conversion: every tile's type gets its layout, and
// convert_layout appears where an op's types tie an operand to another
// layout. Running the pass again changes nothing.
// RUN: tilec-opt %s --convert-tile-to-tilegpu=num-warps=4 -split-input-file | FileCheck %s
// RUN: tilec-opt %s --convert-tile-to-tilegpu=num-warps=4 -split-input-file -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir --convert-tile-to-tilegpu=num-warps=4 -split-input-file -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir

// A dot result takes the mma.sync accumulator layout (warps along M), its
// elementwise users keep it, the row reduction of it takes the slice. The
// dot's A and B keep their own layouts (its lowering reads them).
// CHECK-DAG: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-DAG: #[[ROWS:.+]] = #tilegpu.linear<reg = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = {{\[\[}}16], [32]]>
// CHECK-LABEL: func.func @dot_then_rows
// CHECK-SAME: -> tensor<64xf32, #[[ROWS]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[D:.+]] = tile.dot {{.*}} -> tensor<64x32xf32, #[[ACC]]>
// CHECK: arith.mulf %[[D]], %[[D]] : tensor<64x32xf32, #[[ACC]]>
// CHECK: tile.reduce max {{.*}} : tensor<64x32xf32, #[[ACC]]> -> tensor<64xf32, #[[ROWS]]>
func.func @dot_then_rows(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %c = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %e = arith.mulf %d, %d : tensor<64x32xf32>
  %r = tile.reduce max %e axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Other tiles get a blocked layout: 4 i32 per thread along the last dimension.
// CHECK: #[[B:.+]] = #tilegpu.linear<reg = {{\[\[}}1], [2]], lane = {{\[\[}}4], [8], [16], [32], [64]], warp = {{\[\[}}128], [256]]>
// CHECK-LABEL: func.func @blocked
// CHECK: tile.iota : tensor<512xi32, #[[B]]>
func.func @blocked() -> tensor<512xi32> {
  %i = tile.iota : tensor<512xi32>
  return %i : tensor<512xi32>
}

// -----

// A block loaded in a blocked layout and added to a dot result is read in
// the accumulator's layout; a loop's initial value is converted to the
// layout the loop carries (the dot's accumulator).
// CHECK-DAG: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane
// CHECK-DAG: #[[BLOCKED:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [0, 2], [16, 0], [32, 0]], lane
// CHECK-LABEL: func.func @conversions
// CHECK: %[[X:.+]] = tile.load_block {{.*}} -> tensor<64x32xf32, #[[BLOCKED]]>
// CHECK: %[[INIT:.+]] = tilegpu.convert_layout %[[X]] : tensor<64x32xf32, #[[BLOCKED]]> -> tensor<64x32xf32, #[[ACC]]>
// CHECK: scf.for {{.*}} iter_args(%[[C:.+]] = %[[INIT]]) -> (tensor<64x32xf32, #[[ACC]]>)
// CHECK: %[[D:.+]] = tile.dot %{{.*}}, %{{.*}}, %[[C]]
// CHECK: %[[XA:.+]] = tilegpu.convert_layout %[[X]] : tensor<64x32xf32, #[[BLOCKED]]> -> tensor<64x32xf32, #[[ACC]]>
// CHECK: arith.addf %[[D]], %[[XA]] : tensor<64x32xf32, #[[ACC]]>
func.func @conversions(%p: !tile.ptr<f32>, %da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c32 = arith.constant 32 : i32
  %s1 = arith.constant 1 : i64
  %s32 = arith.constant 32 : i64
  %desc = tile.make_desc %p, [%c64, %c32], [%s32, %s1] : !tile.ptr<f32> -> !tile.desc<64x32xf32>
  %x = tile.load_block %desc[%c0, %c0] : !tile.desc<64x32xf32> -> tensor<64x32xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x32xf32>) : i32 {
    %d = tile.dot %a, %b, %acc : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
    %e = arith.addf %d, %x : tensor<64x32xf32>
    scf.yield %e : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// -----

// A gather read per key (a variant's runtime input, at.input(...)(at.col)),
// computed on and added to a dot's scores: the sum takes the scores'
// layout and the gather, its address and mask arithmetic are made again in
// the columns' slice of it, then broadcast within threads; no conversion
// moves the gathered values between threads.
// CHECK-DAG: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-DAG: #[[COLS:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [0, 0], [0, 0], [0, 0]], warp = {{\[\[}}0, 0], [0, 0]]>
// CHECK-LABEL: func.func @gathered_bias
// CHECK-NOT: tilegpu.convert_layout {{.*}}x!tile.ptr
// CHECK: %[[G:.+]] = tile.load {{.*}} : tensor<1x32x!tile.ptr<f32>, #[[COLS]]>
// CHECK-NEXT: %[[B:.+]] = tile.broadcast %[[G]] : tensor<1x32xf32, #[[COLS]]> -> tensor<64x32xf32, #[[ACC]]>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[B]], %[[B]] : tensor<64x32xf32, #[[ACC]]>
// CHECK-NEXT: arith.addf %{{.+}}, %[[M]] : tensor<64x32xf32, #[[ACC]]>
func.func @gathered_bias(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %bias: !tile.ptr<f32>, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %c = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %i = tile.iota : tensor<32xi32>
  %col = tile.expand_dims %i axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %lim = tile.splat %n : tensor<1x32xi32>
  %in = arith.cmpi slt, %col, %lim : tensor<1x32xi32>
  %base = tile.splat %bias : tensor<1x32x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %col : tensor<1x32x!tile.ptr<f32>>, tensor<1x32xi32>
  %g = tile.load %ptrs mask %in : tensor<1x32x!tile.ptr<f32>>
  %gb = tile.broadcast %g : tensor<1x32xf32> -> tensor<64x32xf32>
  %sq = arith.mulf %gb, %gb : tensor<64x32xf32>
  %s = arith.addf %d, %sq : tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}

// -----

// A mask compared from two broadcasts (a causal bound per row against the
// columns) that selects between a dot's scores takes the scores' layout:
// the compare and both broadcasts are made in it, and no convert_layout
// moves the mask between threads (it went through shared memory when the
// broadcasts took a blocked layout; session 29).
// CHECK-LABEL: func.func @mask_of_broadcasts
// CHECK: %[[D:.+]] = tile.dot {{.*}} -> tensor<64x32xf32, #[[ACC:[^>]+]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: %[[KEEP:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<64x32xi32, #[[ACC]]>
// CHECK: arith.select %[[KEEP]], %[[D]], %{{.+}} : tensor<64x32xi1, #[[ACC]]>, tensor<64x32xf32, #[[ACC]]>
func.func @mask_of_broadcasts(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %off: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %c = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %i = tile.iota : tensor<32xi32>
  %col = tile.expand_dims %i axis = 0 : tensor<32xi32> -> tensor<1x32xi32>
  %cols = tile.broadcast %col : tensor<1x32xi32> -> tensor<64x32xi32>
  %r = tile.iota : tensor<64xi32>
  %offs = tile.splat %off : tensor<64xi32>
  %y = arith.addi %r, %offs : tensor<64xi32>
  %rows = tile.expand_dims %y axis = 1 : tensor<64xi32> -> tensor<64x1xi32>
  %bound = tile.broadcast %rows : tensor<64x1xi32> -> tensor<64x32xi32>
  %keep = arith.cmpi slt, %cols, %bound : tensor<64x32xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<64x32xf32>
  %s = arith.select %keep, %d, %ninf : tensor<64x32xi1>, tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}

// -----

// A reshape of power-of-two sizes relabels the bits of each basis through
// the row-major index, so a wide accumulator folded to a narrow one's
// columns ([64, 32] as [64, 2, 16], the online softmax over key parts)
// keeps every element in its thread: its reduction over the middle
// dimension is register-local, the result has the narrow accumulator's own
// layout, and the two meet with no convert_layout.
// CHECK-DAG: #[[WIDE:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-DAG: #[[SPLIT:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 0, 1], [8, 0, 0], [0, 0, 8], [0, 1, 0]], lane = {{\[\[}}0, 0, 2], [0, 0, 4], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = {{\[\[}}16, 0, 0], [32, 0, 0]]>
// CHECK-DAG: #[[NARROW:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-LABEL: func.func @folded_parts
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reshape %{{.*}} : tensor<64x32xf32, #[[WIDE]]> -> tensor<64x2x16xf32, #[[SPLIT]]>
// CHECK: tile.reduce max %{{.*}} axis = 1 : tensor<64x2x16xf32, #[[SPLIT]]> -> tensor<64x16xf32, #[[NARROW]]>
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : tensor<64x16xf32, #[[NARROW]]>
func.func @folded_parts(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %dc: !tile.desc<16x16xbf16>) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %bn = tile.load_block %dc[%c0, %c0] : !tile.desc<16x16xbf16> -> tensor<16x16xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %zn = arith.constant dense<0.0> : tensor<64x16xf32>
  %wide = tile.dot %a, %b, %z : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %narrow = tile.dot %a, %bn, %zn : tensor<64x16xbf16>, tensor<16x16xbf16> -> tensor<64x16xf32>
  %split = tile.reshape %wide : tensor<64x32xf32> -> tensor<64x2x16xf32>
  %fold = tile.reduce max %split axis = 1 : tensor<64x2x16xf32> -> tensor<64x16xf32>
  %both = arith.maximumf %fold, %narrow : tensor<64x16xf32>
  %r = tile.reduce max %both axis = 1 : tensor<64x16xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A row sum kept per thread through a loop (FlashAttention-3's deferred
// row sum, row_sums=end): the loop carries a constant-initialised [64, 4]
// tile that is scaled by a broadcast and added to what the body sums
// within threads. The carried tile takes the layout of that sum, not the
// blocked layout of its constant start: no convert_layout in the loop,
// only the one reduction across threads after it.
// CHECK-DAG: #[[QUAD:.+]] = #tilegpu.linear<reg = {{\[\[}}8, 0]], lane = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-LABEL: func.func @row_sums_per_thread
// CHECK: scf.for {{.*}} -> (tensor<64x4xf32, #[[QUAD]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.reduce sum %{{.*}} axis = 1 : tensor<64x4x4xf32, #{{.+}}> -> tensor<64x4xf32, #[[QUAD]]>
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
// CHECK: tile.reduce sum %{{.*}} axis = 1 : tensor<64x4xf32, #[[QUAD]]>
func.func @row_sums_per_thread(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %l0 = arith.constant dense<0.0> : tensor<64x4xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %l0) -> (tensor<64x4xf32>) : i32 {
    %s = tile.dot %a, %b, %z : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
    %m = tile.reduce max %s axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
    %mc = tile.expand_dims %m axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    %alpha = tile.broadcast %mc : tensor<64x1xf32> -> tensor<64x4xf32>
    %scaled = arith.mulf %acc, %alpha : tensor<64x4xf32>
    %split = tile.reshape %s : tensor<64x32xf32> -> tensor<64x4x4x2xf32>
    %pairs = tile.reduce sum %split axis = 3 : tensor<64x4x4x2xf32> -> tensor<64x4x4xf32>
    %quad = tile.reduce sum %pairs axis = 1 : tensor<64x4x4xf32> -> tensor<64x4xf32>
    %next = arith.addf %scaled, %quad : tensor<64x4xf32>
    scf.yield %next : tensor<64x4xf32>
  }
  %r = tile.reduce sum %l axis = 1 : tensor<64x4xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// The same with the broadcast as the multiply's first operand: the product
// is still tentative (an operand is), whichever operand comes first.
// CHECK-DAG: #[[QUAD:.+]] = #tilegpu.linear<reg = {{\[\[}}8, 0]], lane = {{\[\[}}0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-LABEL: func.func @row_sums_broadcast_first
// CHECK: scf.for {{.*}} -> (tensor<64x4xf32, #[[QUAD]]>)
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield
func.func @row_sums_broadcast_first(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %l0 = arith.constant dense<0.0> : tensor<64x4xf32>
  %l = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %l0) -> (tensor<64x4xf32>) : i32 {
    %s = tile.dot %a, %b, %z : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
    %m = tile.reduce max %s axis = 1 : tensor<64x32xf32> -> tensor<64xf32>
    %mc = tile.expand_dims %m axis = 1 : tensor<64xf32> -> tensor<64x1xf32>
    %alpha = tile.broadcast %mc : tensor<64x1xf32> -> tensor<64x4xf32>
    %scaled = arith.mulf %alpha, %acc : tensor<64x4xf32>
    %split = tile.reshape %s : tensor<64x32xf32> -> tensor<64x4x4x2xf32>
    %pairs = tile.reduce sum %split axis = 3 : tensor<64x4x4x2xf32> -> tensor<64x4x4xf32>
    %quad = tile.reduce sum %pairs axis = 1 : tensor<64x4x4xf32> -> tensor<64x4xf32>
    %next = arith.addf %scaled, %quad : tensor<64x4xf32>
    scf.yield %next : tensor<64x4xf32>
  }
  %r = tile.reduce sum %l axis = 1 : tensor<64x4xf32> -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// tile.scale_rows keeps the scaled tile's layout (the dot's accumulator);
// its factors, made in a blocked layout, are read in the accumulator's
// rows' slice.
// CHECK-DAG: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// CHECK-DAG: #[[ROWS:.+]] = #tilegpu.linear<reg = {{\[\[}}8]], lane = {{\[\[}}0], [0], [1], [2], [4]], warp = {{\[\[}}16], [32]]>
// CHECK-LABEL: func.func @scale_rows
// CHECK: %[[D:.+]] = tile.dot {{.*}} -> tensor<64x32xf32, #[[ACC]]>
// CHECK: %[[F:.+]] = tilegpu.convert_layout %{{.+}} : tensor<64xf32, #{{.+}}> -> tensor<64xf32, #[[ROWS]]>
// CHECK: tile.scale_rows %[[D]], %[[F]] : tensor<64x32xf32, #[[ACC]]>, tensor<64xf32, #[[ROWS]]>
func.func @scale_rows(%da: !tile.desc<64x16xbf16>, %db: !tile.desc<16x32xbf16>, %df: !tile.desc<64xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x16xbf16> -> tensor<64x16xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16>
  %f = tile.load_block %df[%c0] : !tile.desc<64xf32> -> tensor<64xf32>
  %z = arith.constant dense<0.0> : tensor<64x32xf32>
  %d = tile.dot %a, %b, %z : tensor<64x16xbf16>, tensor<16x32xbf16> -> tensor<64x32xf32>
  %r = tile.scale_rows %d, %f : tensor<64x32xf32>, tensor<64xf32>
  return %r : tensor<64x32xf32>
}
