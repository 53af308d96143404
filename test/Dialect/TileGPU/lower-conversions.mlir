// tilegpu-lower-conversions: every layout change becomes one that lowers.
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-conversions -verify-diagnostics | FileCheck %s

#m = #tilegpu.mma<warps = [4, 1]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
#r = #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [1, 4], order = [1, 0]>
// A key mask (iota + offset < length), broadcast over the rows of an mma
// tile: its 1-D layout is not what the mma tile's threads hold, so the
// pass asks for the derivable one, and the cheap chain is made again in it
// (no shared memory).
// CHECK-LABEL: func.func @mask
// CHECK-NOT: tilegpu.convert_layout
// CHECK-NOT: tilegpu.local_store
// CHECK-DAG: tile.iota : tensor<64xi32, #linear>
// CHECK-DAG: tile.splat %arg0 : tensor<64xi32, #linear>
// CHECK: arith.addi
// CHECK: arith.cmpi slt
// CHECK: tile.expand_dims
// CHECK: tile.broadcast %{{.*}} : tensor<1x64xi1, #linear1> -> tensor<64x64xi1, #tilegpu.mma<warps = [4, 1]>>
func.func @mask(%start: i32, %len: i32) -> tensor<64x64xi1, #m> {
  %i = tile.iota : tensor<64xi32, #v>
  %s = tile.splat %start : tensor<64xi32, #v>
  %k = arith.addi %s, %i : tensor<64xi32, #v>
  %n = tile.splat %len : tensor<64xi32, #v>
  %keep = arith.cmpi slt, %k, %n : tensor<64xi32, #v>
  %row = tile.expand_dims %keep axis = 0 : tensor<64xi1, #v> -> tensor<1x64xi1, #r>
  %all = tile.broadcast %row : tensor<1x64xi1, #r> -> tensor<64x64xi1, #m>
  return %all : tensor<64x64xi1, #m>
}

// -----

#m = #tilegpu.mma<warps = [4, 1]>
#b = #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// A computed tile that must move between threads: through a scratch
// buffer allocated right before it; an i1 tile as i8.
// CHECK-LABEL: func.func @exchange
// CHECK: %[[S:.*]] = tilegpu.alloc : !tilegpu.smem<64x64xf32, #tilegpu.padded<0>>
// CHECK-NEXT: tilegpu.local_store %arg0, %[[S]]
// CHECK-NEXT: tilegpu.local_load %[[S]] : !tilegpu.smem<64x64xf32, #tilegpu.padded<0>> -> tensor<64x64xf32, #tilegpu.blocked
// CHECK: arith.extui %arg1 : tensor<64x64xi1, {{.*}}> to tensor<64x64xi8
// CHECK: tilegpu.alloc : !tilegpu.smem<64x64xi8, #tilegpu.padded<0>>
// CHECK: tilegpu.local_load {{.*}} -> tensor<64x64xi8, #tilegpu.blocked
// CHECK: arith.trunci {{.*}} to tensor<64x64xi1, #tilegpu.blocked
func.func @exchange(%x: tensor<64x64xf32, #m>, %p: tensor<64x64xi1, #m>) -> (tensor<64x64xf32, #b>, tensor<64x64xi1, #b>) {
  %y = tilegpu.convert_layout %x : tensor<64x64xf32, #m> -> tensor<64x64xf32, #b>
  %q = tilegpu.convert_layout %p : tensor<64x64xi1, #m> -> tensor<64x64xi1, #b>
  return %y, %q : tensor<64x64xf32, #b>, tensor<64x64xi1, #b>
}

// -----

#m = #tilegpu.mma<warps = [2, 2]>
#row = #tilegpu.linear<reg = [[8], [16]], lane = [[0], [0], [1], [2], [4]], warp = [[0], [0]]>
// Row sums of an mma tile whose warps split the rows' columns (warp grid
// [2, 2]): reduced on a blocked layout with every warp on its own rows,
// the input and the result exchanged through shared memory.
// CHECK-LABEL: func.func @cross_warp_sum
// CHECK: tilegpu.local_store %arg0
// CHECK: %[[IN:.*]] = tilegpu.local_load {{.*}} -> tensor<32x32xf32, #linear
// CHECK: %[[SUM:.*]] = tile.reduce sum %[[IN]] axis = 1
// CHECK: tilegpu.local_store %[[SUM]]
// CHECK: %[[BACK:.*]] = tilegpu.local_load {{.*}} -> tensor<32xf32, #linear
// CHECK: return %[[BACK]]
func.func @cross_warp_sum(%x: tensor<32x32xf32, #m>) -> tensor<32xf32, #row> {
  %s = tile.reduce sum %x axis = 1 : tensor<32x32xf32, #m> -> tensor<32xf32, #row>
  return %s : tensor<32xf32, #row>
}

// -----

// The same for a middle axis (the row sums kept per thread, row_sums=end,
// on 64 rows of 8 warps: the warps split the columns' 8-column groups).
#split = #tilegpu.linear<reg = [[8, 0, 0], [0, 2, 0]], lane = [[0, 0, 1], [0, 0, 2], [1, 0, 0], [2, 0, 0], [4, 0, 0]], warp = [[16, 0, 0], [32, 0, 0], [0, 1, 0]]>
#quads = #tilegpu.linear<reg = [[8, 0]], lane = [[0, 1], [0, 2], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0], [0, 0]]>
// CHECK-LABEL: func.func @cross_warp_middle_sum
// CHECK: tilegpu.local_store %arg0
// CHECK: %[[IN:.*]] = tilegpu.local_load {{.*}} -> tensor<64x4x4xf32, #linear
// CHECK: %[[SUM:.*]] = tile.reduce sum %[[IN]] axis = 1
// CHECK: tilegpu.local_store %[[SUM]]
// CHECK: %[[BACK:.*]] = tilegpu.local_load {{.*}} -> tensor<64x4xf32, #linear
// CHECK: return %[[BACK]]
func.func @cross_warp_middle_sum(%x: tensor<64x4x4xf32, #split>) -> tensor<64x4xf32, #quads> {
  %s = tile.reduce sum %x axis = 1 : tensor<64x4x4xf32, #split> -> tensor<64x4xf32, #quads>
  return %s : tensor<64x4xf32, #quads>
}

// -----

#one = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
#both = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
func.func @narrow_rows(%x: tensor<2xi32, #one>) -> tensor<2xi32, #both> {
  // expected-error @+1 {{'tilegpu.convert_layout' op moves data between threads through shared memory, which needs rows of a multiple of 16 bytes; got 8}}
  %y = tilegpu.convert_layout %x : tensor<2xi32, #one> -> tensor<2xi32, #both>
  return %y : tensor<2xi32, #both>
}

// -----

#c = #tilegpu.linear<reg = [[1, 0], [2, 0]], lane = [[4, 0], [8, 0], [16, 0], [32, 0], [0, 0]], warp = [[0, 0], [0, 0]]>
#d = #tilegpu.linear<reg = [[8, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]>
// A column (one f32 per row: rows of 4 bytes) moves between threads as the
// 1-D tensor it holds, whose 256-byte row the exchange can take.
// CHECK-LABEL: func.func @column
// CHECK: %[[FLAT:.*]] = tile.reshape %arg0 : tensor<64x1xf32, #linear{{[0-9]*}}> -> tensor<64xf32, #linear{{[0-9]*}}>
// CHECK: %[[S:.*]] = tilegpu.alloc : !tilegpu.smem<64xf32, #tilegpu.padded<0>>
// CHECK-NEXT: tilegpu.local_store %[[FLAT]], %[[S]]
// CHECK-NEXT: %[[MOVED:.*]] = tilegpu.local_load %[[S]] : !tilegpu.smem<64xf32, #tilegpu.padded<0>> -> tensor<64xf32, #linear{{[0-9]*}}>
// CHECK-NEXT: tile.reshape %[[MOVED]] : tensor<64xf32, #linear{{[0-9]*}}> -> tensor<64x1xf32, #linear{{[0-9]*}}>
func.func @column(%x: tensor<64x1xf32, #c>) -> tensor<64x1xf32, #d> {
  %y = tilegpu.convert_layout %x : tensor<64x1xf32, #c> -> tensor<64x1xf32, #d>
  return %y : tensor<64x1xf32, #d>
}

// -----

#m = #tilegpu.mma<warps = [4, 1]>
#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
#r = #tilegpu.blocked<size_per_thread = [1, 1], threads = [1, 32], warps = [1, 4], order = [1, 0]>
// A position bias (ALiBi's j - i): index arithmetic converted to f32 is
// made again in the scores' layout through the cast too (no shared memory).
// CHECK-LABEL: func.func @cast_bias
// CHECK-NOT: tilegpu.local_store
// CHECK-NOT: tilegpu.convert_layout
// CHECK: tile.cast %{{.*}} : tensor<64x64xi32, {{.*}}> to tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>
// CHECK-NEXT: arith.addf
func.func @cast_bias(%s: tensor<64x64xf32, #m>) -> tensor<64x64xf32, #m> {
  %i = tile.iota : tensor<64xi32, #v>
  %row = tile.expand_dims %i axis = 0 : tensor<64xi32, #v> -> tensor<1x64xi32, #r>
  %all = tile.broadcast %row : tensor<1x64xi32, #r> -> tensor<64x64xi32, #r>
  %f = tile.cast %all : tensor<64x64xi32, #r> to tensor<64x64xf32, #r>
  %c = tilegpu.convert_layout %f : tensor<64x64xf32, #r> -> tensor<64x64xf32, #m>
  %b = arith.addf %s, %c : tensor<64x64xf32, #m>
  return %b : tensor<64x64xf32, #m>
}

// -----

#v = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
#w = #tilegpu.blocked<size_per_thread = [2], threads = [32], warps = [4], order = [0]>
// A tile just read from shared memory (a ring slot of row statistics) is
// read again in the wanted layout, right where it was read: no scratch
// buffer, and still before the slot is released. The first read goes once
// nothing else uses it; one with other users stays.
// CHECK-LABEL: func.func @reread
// CHECK-NOT: tilegpu.alloc
// CHECK: %[[A:.*]] = tilegpu.local_load %arg0 : !tilegpu.smem<256xf32, #tilegpu.padded<0>> -> tensor<256xf32, #tilegpu.blocked<size_per_thread = [2]
// CHECK-NEXT: tilegpu.mbarrier_arrive
// CHECK: %[[B:.*]] = tilegpu.local_load %arg1 : !tilegpu.smem<256xf32, #tilegpu.padded<0>> -> tensor<256xf32, #tilegpu.blocked<size_per_thread = [1]
// CHECK-NEXT: %[[C:.*]] = tilegpu.local_load %arg1 : !tilegpu.smem<256xf32, #tilegpu.padded<0>> -> tensor<256xf32, #tilegpu.blocked<size_per_thread = [2]
// CHECK-NOT: tilegpu.local_store
// CHECK: arith.addf %[[A]], %[[C]]
// CHECK: return %{{.*}}, %[[B]]
func.func @reread(%slot: !tilegpu.smem<256xf32, #tilegpu.padded<0>>, %other: !tilegpu.smem<256xf32, #tilegpu.padded<0>>, %empty: !tilegpu.mbarrier<2>, %i: i32) -> (tensor<256xf32, #w>, tensor<256xf32, #v>) {
  %a = tilegpu.local_load %slot : !tilegpu.smem<256xf32, #tilegpu.padded<0>> -> tensor<256xf32, #v>
  tilegpu.mbarrier_arrive %empty[%i] : !tilegpu.mbarrier<2>
  %b = tilegpu.local_load %other : !tilegpu.smem<256xf32, #tilegpu.padded<0>> -> tensor<256xf32, #v>
  %ca = tilegpu.convert_layout %a : tensor<256xf32, #v> -> tensor<256xf32, #w>
  %cb = tilegpu.convert_layout %b : tensor<256xf32, #v> -> tensor<256xf32, #w>
  %sum = arith.addf %ca, %cb : tensor<256xf32, #w>
  return %sum, %b : tensor<256xf32, #w>, tensor<256xf32, #v>
}
