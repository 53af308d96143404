// A dot whose M fills whole warpgroups but fewer than the program has (64
// rows on 8 warps: the fused backward's dQ share) takes wgmma's column
// blocks with warpgroup-columns (what the tilegpu lowering asks for with
// wgmma): the second warpgroup owns columns 64-127 (warp basis [0, 64]),
// each warpgroup's registers walk its 64 columns. Without the option it
// keeps mma.sync's grid [4, 2], the second group of warps on the odd
// 8-column tiles (warp basis [0, 8]).
// RUN: tilec-opt %s --convert-tile-to-tilegpu="num-warps=8 warpgroup-columns=true" | FileCheck %s --check-prefix=COLS
// RUN: tilec-opt %s --convert-tile-to-tilegpu="num-warps=8" | FileCheck %s --check-prefix=MMA
// A dot that fills every warp along M is the same either way.
// RUN: tilec-opt %s --convert-tile-to-tilegpu="num-warps=4 warpgroup-columns=true" | FileCheck %s --check-prefix=FOUR
// Column blocks only where the result only goes out to memory (through
// elementwise ops): scores whose rows are reduced (an attention step of 64
// rows on 8 warps) keep mma.sync's grid, since a row would otherwise be
// split between warpgroups (SCORES).
// RUN: tilec-opt %s --convert-tile-to-tilegpu="num-warps=8 warpgroup-columns=true" | FileCheck %s --check-prefix=SCORES

// COLS: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0], [0, 64]]>
// COLS: tile.dot {{.+}} -> tensor<64x128xf32, #[[ACC]]>
// MMA: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 16], [0, 32], [0, 64]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0], [0, 8]]>
// MMA: tile.dot {{.+}} -> tensor<64x128xf32, #[[ACC]]>
// FOUR: #[[ACC:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 8], [0, 16], [0, 32], [0, 64]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0]]>
// FOUR: tile.dot {{.+}} -> tensor<64x128xf32, #[[ACC]]>
// SCORES: #[[GRID:.+]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [8, 0], [0, 16], [0, 32], [0, 64]], lane = {{\[\[}}0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = {{\[\[}}16, 0], [32, 0], [0, 8]]>
// SCORES-LABEL: func.func @scores
// SCORES: tile.dot {{.+}} -> tensor<64x128xf32, #[[GRID]]>
func.func @dq(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %n: i32, %s: i64) -> tensor<64x128xf32> {
  %c0 = arith.constant 0 : i32
  %da = tile.make_desc %pa, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  %db = tile.make_desc %pb, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<128x128xbf16>
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %d = tile.dot %a, %b, %z : tensor<64x128xbf16>, tensor<128x128xbf16> -> tensor<64x128xf32>
  return %d : tensor<64x128xf32>
}

func.func @scores(%pa: !tile.ptr<bf16>, %pb: !tile.ptr<bf16>, %n: i32, %s: i64) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %da = tile.make_desc %pa, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  %db = tile.make_desc %pb, [%n, %n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<128x128xbf16>
  %a = tile.load_block %da[%c0, %c0] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  %b = tile.load_block %db[%c0, %c0] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16>
  %z = arith.constant dense<0.0> : tensor<64x128xf32>
  %d = tile.dot %a, %b, %z : tensor<64x128xbf16>, tensor<128x128xbf16> -> tensor<64x128xf32>
  %scaled = arith.mulf %d, %d : tensor<64x128xf32>
  %m = tile.reduce max %scaled axis = 1 : tensor<64x128xf32> -> tensor<64xf32>
  return %m : tensor<64xf32>
}
