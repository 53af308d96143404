// One case per verifier message of the tilegpu dialect's attributes, types
// and ops.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{expected bases of rank 1 or more}}
func.func private @f(tensor<16xf32, #tilegpu.linear<reg = [[]], lane = [[], [], [], [], []], warp = []>>)

// -----

// expected-error @+1 {{expected every basis to have 2 coordinates}}
func.func private @f(tensor<16x8xf32, #tilegpu.linear<reg = [[0, 1], [8]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>)

// -----

// expected-error @+1 {{expected 5 lane bases (32 lanes), got 4}}
func.func private @f(tensor<16x8xf32, #tilegpu.linear<reg = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0]], warp = []>>)

// -----

// expected-error @+1 {{expected non-negative basis coordinates}}
func.func private @f(tensor<16x8xf32, #tilegpu.linear<reg = [[0, -1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>)

// -----

// expected-error @+1 {{expected a layout that places a 16x8 tile: the bases have 1 coordinates}}
func.func private @f(tensor<16x8xf32, #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = []>>)

// -----

// expected-error @+1 {{expected a layout that places a 16x4 tile: a basis points outside the tile}}
func.func private @f(tensor<16x4xf32, #tilegpu.linear<reg = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>)

// -----

// expected-error @+1 {{expected the layout to hold every element of the 16x16 tile}}
func.func private @f(tensor<16x16xf32, #tilegpu.linear<reg = [[0, 1], [8, 0]], lane = [[0, 2], [0, 4], [1, 0], [2, 0], [4, 0]], warp = []>>)

// -----

// expected-error @+1 {{expected size_per_thread, threads, warps and order of one rank}}
func.func private @f(tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4], order = [1, 0]>>)

// -----

// expected-error @+1 {{expected powers of two in size_per_thread, threads and warps}}
func.func private @f(tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 3], threads = [4, 8], warps = [4, 1], order = [1, 0]>>)

// -----

// expected-error @+1 {{expected threads to multiply to 32, got 16}}
func.func private @f(tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [2, 8], warps = [4, 1], order = [1, 0]>>)

// -----

// expected-error @+1 {{expected order to be a permutation of the dimensions}}
func.func private @f(tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 1]>>)

// -----

// expected-error @+1 {{expected a layout that places a 64 tile: the layout has rank 2}}
func.func private @f(tensor<64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>)

// -----

// expected-error @+1 {{expected a layout that places a 48x64 tile: blocked layouts hold tiles of power-of-two sides}}
func.func private @f(tensor<48x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>)

// -----

// expected-error @+1 {{expected powers of two in the warp grid, got [3, 1]}}
func.func private @f(tensor<64x64xf32, #tilegpu.mma<warps = [3, 1]>>)

// -----

// expected-error @+1 {{expected a layout that places a 64 tile: mma layouts hold 2-D tiles}}
func.func private @f(tensor<64xf32, #tilegpu.mma<warps = [4, 1]>>)

// -----

// expected-error @+1 {{expected a layout that places a 8x8 tile: sides must be powers of two, at least 16x8}}
func.func private @f(tensor<8x8xf32, #tilegpu.mma<warps = [4, 1]>>)

// -----

// expected-error @+1 {{expected operand index 0 (A) or 1 (B), got 2}}
func.func private @f(tensor<64x64xbf16, #tilegpu.mma_operand<index = 2, warps = [4, 1]>>)

// -----

// expected-error @+1 {{expected a power of two of warpgroups, got 3}}
func.func private @f(tensor<192x64xf32, #tilegpu.wgmma<warpgroups = 3>>)

// -----

// expected-error @+1 {{expected a layout that places a 32x64 tile: sides must be powers of two, at least 64x8}}
func.func private @f(tensor<32x64xf32, #tilegpu.wgmma<warpgroups = 1>>)

// -----

// expected-error @+1 {{expected a layout that places a 32x64 tile: sides must be powers of two, at least 64x16}}
func.func private @f(tensor<32x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>)

// -----

// expected-error @+1 {{expected a swizzle of 32, 64 or 128 bytes, got 96}}
func.func private @f(!tilegpu.smem<64x64xbf16, #tilegpu.swizzled<96>>)

// -----

// expected-error @+1 {{expected row padding of a multiple of 16 bytes, got 8}}
func.func private @f(!tilegpu.smem<64x64xbf16, #tilegpu.padded<8>>)

// -----

// expected-error @+1 {{expected a non-empty static shape of positive sizes}}
func.func private @f(!tilegpu.smem<0x64xbf16, #tilegpu.padded<0>>)

// -----

// expected-error @+1 {{expected an integer or float element type of whole bytes, got 'i1'}}
func.func private @f(!tilegpu.smem<64x128xi1, #tilegpu.padded<0>>)

// -----

// expected-error @+1 {{expected rows of a multiple of 16 bytes, got 12}}
func.func private @f(!tilegpu.smem<64x6xbf16, #tilegpu.padded<0>>)

// -----

// expected-error @+1 {{expected rows of a multiple of the 128-byte swizzle, got 64 bytes}}
func.func private @f(!tilegpu.smem<64x32xbf16, #tilegpu.swizzled<128>>)

// -----

// expected-error @+1 {{expected a swizzled buffer of whole 8-row atoms}}
func.func private @f(!tilegpu.smem<4x64xbf16, #tilegpu.swizzled<128>>)

// -----

// expected-error @+1 {{expected a shared-memory encoding (#tilegpu.swizzled or #tilegpu.padded), got #tilegpu.mma<warps = [4, 1]>}}
func.func private @f(!tilegpu.smem<64x64xbf16, #tilegpu.mma<warps = [4, 1]>>)

// -----

// expected-error @+1 {{expected a TMA box of at most 5 dimensions of at most 256}}
func.func private @f(!tilegpu.tensor_map<512x64xbf16, #tilegpu.swizzled<128>>)

// -----

// expected-error @+1 {{expected the box's inner dimension to span the 128-byte swizzle, got 256 bytes}}
func.func private @f(!tilegpu.tensor_map<64x128xbf16, #tilegpu.swizzled<128>>)

// -----

// expected-error @+1 {{expected #tilegpu.swizzled or #tilegpu.padded<0> for a TMA box}}
func.func private @f(!tilegpu.tensor_map<64x64xbf16, #tilegpu.padded<16>>)

// -----

// expected-error @+1 {{expected the box's inner dimension to be a multiple of 16 bytes}}
func.func private @f(!tilegpu.tensor_map<64x4xbf16, #tilegpu.padded<0>>)

// -----

// expected-error @+1 {{expected at least one mbarrier}}
func.func private @f(!tilegpu.mbarrier<0>)

// -----

func.func @f(%x: tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op expected the same shape and element type}}
  %0 = tilegpu.convert_layout %x : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>> -> tensor<64x64xf16, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>
  return
}

// -----

func.func @f(%x: tensor<64x64xf32>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op expected a source with a distributed layout, got 'tensor<64x64xf32>'}}
  %0 = tilegpu.convert_layout %x : tensor<64x64xf32> -> tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>
  return
}

// -----

func.func @f(%x: tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.convert_layout' op expected layouts over the same number of warps, got 4 and 8}}
  %0 = tilegpu.convert_layout %x : tensor<64x64xf32, #tilegpu.mma<warps = [4, 1]>> -> tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [8, 1], order = [1, 0]>>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.alloc' op expected a non-negative offset, got -1}}
  %0 = tilegpu.alloc {offset = -1 : i64} : !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%b: !tilegpu.smem<64xbf16, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.slot' op expected a buffer with a slot dimension}}
  %0 = tilegpu.slot %b[%i] : !tilegpu.smem<64xbf16, #tilegpu.padded<0>> -> !tilegpu.smem<64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%b: !tilegpu.smem<2x64x64xbf16, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.slot' op expected the slot type '!tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>', got '!tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>'}}
  %0 = tilegpu.slot %b[%i] : !tilegpu.smem<2x64x64xbf16, #tilegpu.padded<0>> -> !tilegpu.smem<64x64xbf16, #tilegpu.padded<16>>
  return
}

// -----

func.func @f(%b: !tilegpu.smem<2x64x64xbf16, #tilegpu.padded<0>>) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{'tilegpu.slot' op expected a slot index in [0, 2), got 2}}
  %0 = tilegpu.slot %b[%c2] : !tilegpu.smem<2x64x64xbf16, #tilegpu.padded<0>> -> !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%b: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>) {
  // expected-error @+1 {{'tilegpu.local_load' op expected the tile and the buffer to have one shape and element type}}
  %0 = tilegpu.local_load %b : !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>> -> tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>
  return
}

// -----

func.func @f(%b: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, %t: tensor<64x64xbf16>) {
  // expected-error @+1 {{'tilegpu.local_store' op expected a tile with a distributed layout, got 'tensor<64x64xbf16>'}}
  tilegpu.local_store %t, %b : tensor<64x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%d: !tile.desc<1x64x64xbf16>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op expected 3 coordinates, got 2}}
  %0 = tilegpu.async_copy %d[%i, %i], %s : !tile.desc<1x64x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%d: !tile.desc<64x64xf16>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op expected the block and the buffer to have one element type, got 'f16' and 'bf16'}}
  %0 = tilegpu.async_copy %d[%i, %i], %s : !tile.desc<64x64xf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%d: !tile.desc<1x32x64xbf16>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.async_copy' op expected the block to have the buffer's shape up to unit dimensions, got 'tensor<1x32x64xbf16>' for '!tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>'}}
  %0 = tilegpu.async_copy %d[%i, %i, %i], %s : !tile.desc<1x32x64xbf16>, !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.async_wait' op expected a non-negative pending count, got -1}}
  tilegpu.async_wait {pending = -1 : i32}
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.mbarrier_create' op expected at least one arrival per phase, got 0}}
  %0 = tilegpu.mbarrier_create {arrivals = 0 : i32} : !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.mbarrier_create' op expected a non-negative offset, got -8}}
  %0 = tilegpu.mbarrier_create {arrivals = 1 : i32, offset = -8 : i64} : !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%b: !tilegpu.mbarrier<2>, %i: i32) {
  // expected-error @+1 {{'tilegpu.mbarrier_arrive' op expected a positive transaction byte count, got 0}}
  tilegpu.mbarrier_arrive %b[%i] expect_tx 0 : !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%b: !tilegpu.mbarrier<2>) {
  %c5 = arith.constant 5 : i32
  // expected-error @+1 {{'tilegpu.mbarrier_arrive' op expected a barrier index in [0, 2), got 5}}
  tilegpu.mbarrier_arrive %b[%c5] : !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%m: !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<64>>, %b: !tilegpu.mbarrier<2>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_load' op expected the buffer to have the tensor map's encoding #tilegpu.swizzled<128>, got #tilegpu.swizzled<64>}}
  tilegpu.tma_load %m[%i, %i], %s, %b[%i] : !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<64>>, !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%m: !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %b: !tilegpu.mbarrier<2>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_load' op expected 2 coordinates, got 3}}
  tilegpu.tma_load %m[%i, %i, %i], %s, %b[%i] : !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%m: !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %b: !tilegpu.mbarrier<2>, %i: i32) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{'tilegpu.tma_load' op expected a barrier index in [0, 2), got 2}}
  tilegpu.tma_load %m[%i, %i], %s, %b[%c2] : !tilegpu.tensor_map<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f(%m: !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_store' op expected the box to have the buffer's shape up to unit dimensions, got 'tensor<32x64xbf16>' for '!tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>'}}
  tilegpu.tma_store %s, %m[%i, %i] : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>
  return
}

// -----

// A store from column blocks side by side: its boxes must still have the
// buffer's rows.
func.func @f(%m: !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_store' op expected the box to have the buffer's shape up to unit dimensions, got 'tensor<32x128xbf16>' for '!tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>'}}
  tilegpu.tma_store %s, %m[%i, %i] : !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>
  return
}

// -----

// Side by side, the boxes must still have the buffer's rows.
func.func @f(%m: !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>, %s: !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, %b: !tilegpu.mbarrier<2>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_load' op expected the box to have the buffer's shape up to unit dimensions, got 'tensor<32x128xbf16>' for '!tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>'}}
  tilegpu.tma_load %m[%i, %i], %s, %b[%i] : !tilegpu.tensor_map<32x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, !tilegpu.mbarrier<2>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.tma_store_wait' op expected a non-negative pending count, got -2}}
  tilegpu.tma_store_wait {pending = -2 : i32}
  return
}

// -----

func.func @f(%a: tensor<64x16xf32, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, %c: tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected bf16 or f16 operands of one type, got 'f32' and 'bf16'}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x16xf32, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  return
}

// -----

func.func @f(%a: tensor<64x32xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, %c: tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected MxK, KxN and MxN operands}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x32xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  return
}

// -----

func.func @f(%a: tensor<64x8xbf16, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, %b: tensor<8x32xbf16, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, %c: tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected K to be a multiple of 16, got 8}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x8xbf16, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, tensor<8x32xbf16, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  return
}

// -----

func.func @f(%a: tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, %c: tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected A in the mma operand layout of the accumulator's warp grid [4, 1]}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  return
}

// -----

func.func @f(%a: tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [2, 2]>>, %c: tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected B in the mma operand layout of the accumulator's warp grid [4, 1]}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [2, 2]>> -> tensor<64x32xf32, #tilegpu.mma<warps = [4, 1]>>
  return
}

// -----

func.func @f(%a: tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, %c: tensor<64x32xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>) {
  // expected-error @+1 {{'tilegpu.mma' op expected the accumulator in an mma.sync m16n8 layout}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32, #tilegpu.blocked<size_per_thread = [1, 4], threads = [4, 8], warps = [4, 1], order = [1, 0]>>
  return
}

// -----

func.func @f(%a: tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, %b: tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>, %c: tensor<64x32xf32>) {
  // expected-error @+1 {{'tilegpu.mma' op expected an accumulator with a distributed layout, got 'tensor<64x32xf32>'}}
  %0 = tilegpu.mma %a, %b, %c : tensor<64x16xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>, tensor<16x32xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x32xf32>
  return
}

// -----

!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
func.func @chained_token_not_a_dot(%q: !buf, %k: !buf, %t: !tok) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected a chained accumulator token to be a warpgroup_dot's}}
  %0 = tilegpu.warpgroup_dot %q, %k, %t transpose_b : !buf, !buf, !tok
  return
}

// -----

!buf = !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
!tok = !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
func.func @chained_token_also_waited(%q: !buf, %k: !buf, %s: tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  %t = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !buf, !buf, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected this dot to be the only use of the token it chains onto}}
  %0 = tilegpu.warpgroup_dot %q, %k, %t transpose_b : !buf, !buf, !tok
  %1 = tilegpu.dot_wait %t {pending = 0 : i32} : !tok
  return
}

// -----

func.func @f(%q: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %k: !tilegpu.smem<128x64xbf16, #tilegpu.padded<16>>, %s: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected B in a swizzled buffer}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<128x64xbf16, #tilegpu.padded<16>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

func.func @f(%q: !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, %k: !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, %s: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected A in a 128-byte-swizzled buffer or in registers}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.padded<0>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

// A by descriptor takes the 128-byte swizzle only.
func.func @f(%q: !tilegpu.smem<64x32xbf16, #tilegpu.swizzled<64>>, %k: !tilegpu.smem<128x32xbf16, #tilegpu.swizzled<64>>, %s: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected A in a 128-byte-swizzled buffer or in registers}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x32xbf16, #tilegpu.swizzled<64>>, !tilegpu.smem<128x32xbf16, #tilegpu.swizzled<64>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

func.func @f(%q: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %k: !tilegpu.smem<512x64xbf16, #tilegpu.swizzled<128>>, %s: tensor<64x512xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected each warpgroup's N to be a multiple of 8 up to 256, got 512}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<512x64xbf16, #tilegpu.swizzled<128>>, tensor<64x512xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

// transpose_a reads A's transpose from shared memory; registers hold A itself.
func.func @f(%p: tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>, %v: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %o: tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected A in shared memory with transpose_a}}
  %0 = tilegpu.warpgroup_dot %p, %v, %o transpose_a : tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

// With transpose_a, A's buffer is K x M: 128 x 64 here, so K = 128 must
// match B's 64 rows.
func.func @f(%ds: !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, %k: !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, %s: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected MxK, KxN and MxN operands}}
  %0 = tilegpu.warpgroup_dot %ds, %k, %s transpose_a : !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
  return
}

// -----

// Column blocks: A in registers is copied to each block's warpgroups (the
// operand layout with the same columns).
func.func @f(%p: tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>, %v: !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, %o: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected A in registers in the wgmma operand layout}}
  %0 = tilegpu.warpgroup_dot %p, %v, %o : tensor<64x64xbf16, #tilegpu.wgmma_operand<warpgroups = 1>>, !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
  return
}

// -----

// expected-error @+1 {{expected a power of two of column blocks, got 3}}
func.func @f(%o: tensor<64x96xf32, #tilegpu.wgmma<warpgroups = 1, columns = 3>>) {
  return
}

// -----

// expected-error @+1 {{expected at most 8 warpgroups (1024 threads), got 4 x 4}}
func.func @f(%o: tensor<256x128xf32, #tilegpu.wgmma<warpgroups = 4, columns = 4>>) {
  return
}

// -----

func.func @f(%q: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %k: !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, %s: tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected MxK, KxN and MxN operands}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<64x128xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

func.func @f(%q: !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, %k: !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, %s: tensor<64x128xf32, #tilegpu.mma<warps = [2, 2]>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected the accumulator in a wgmma layout}}
  %0 = tilegpu.warpgroup_dot %q, %k, %s transpose_b : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.mma<warps = [2, 2]>>
  return
}

// -----

func.func @f(%p: tensor<64x128xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>, %v: !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, %o: tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  // expected-error @+1 {{'tilegpu.warpgroup_dot' op expected A in registers in the wgmma operand layout}}
  %0 = tilegpu.warpgroup_dot %p, %v, %o : tensor<64x128xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>, !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>
  return
}

// -----

func.func @f(%t: !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>) {
  // expected-error @+1 {{'tilegpu.dot_wait' op expected a non-negative pending count, got -1}}
  %0 = tilegpu.dot_wait %t {pending = -1 : i32} : !tilegpu.dot_token<tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>>
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.warp_specialize' op expected at least one role}}
  tilegpu.warp_specialize
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.warp_specialize' op expected warps and registers for each of the 2 roles}}
  "tilegpu.warp_specialize"() ({ "tilegpu.barrier"() : () -> () }, { "tilegpu.barrier"() : () -> () }) {warps = array<i32: 4>, registers = array<i32: 40>} : () -> ()
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.warp_specialize' op expected whole warpgroups (warps a positive multiple of 4), got 2}}
  tilegpu.warp_specialize
    role warps = 2 registers = 40 {}
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.warp_specialize' op expected registers per thread a multiple of 8 in [24, 256], got 20}}
  tilegpu.warp_specialize
    role warps = 4 registers = 20 {}
  return
}

// -----

func.func @f() {
  // expected-error @+1 {{'tilegpu.warp_specialize' op expected the roles' registers to fit 65536, got 98304}}
  tilegpu.warp_specialize
    role warps = 4 registers = 256 {}
    role warps = 8 registers = 256 {}
  return
}

// -----

func.func @f(%id: i32) {
  // expected-error @+1 {{'tilegpu.barrier_sync' op expected a multiple of 32 threads up to 1024, got 100}}
  tilegpu.barrier_sync %id, 100
  return
}

// -----

func.func @f() {
  %c16 = arith.constant 16 : i32
  // expected-error @+1 {{'tilegpu.barrier_arrive' op expected a barrier id in [0, 16), got 16}}
  tilegpu.barrier_arrive %c16, 256
  return
}

// -----

func.func @f() {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      // expected-error @+1 {{'tilegpu.barrier' op expected outside tilegpu.warp_specialize (it waits for every thread of the block)}}
      tilegpu.barrier
    }
  return
}

// -----

func.func @f() {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      // expected-error @+1 {{'tilegpu.mbarrier_create' op expected outside tilegpu.warp_specialize}}
      %b = tilegpu.mbarrier_create {arrivals = 1 : i32} : !tilegpu.mbarrier<1>
    }
  return
}

// -----

func.func @f() {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
      // expected-error @+1 {{'tilegpu.warp_specialize' op expected no warp roles inside a warp role}}
      tilegpu.warp_specialize
        role warps = 4 registers = 40 {}
    }
  return
}

// -----

// expected-error @+1 {{expected a tile of at most 2^24 elements for a distributed layout, got 8192x4096}}
func.func @f(%t: tensor<8192x4096xf32, #tilegpu.blocked<size_per_thread = [1, 1], threads = [4, 8], warps = [4, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{expected size_per_thread to multiply to at most 256}}
func.func @f(%t: tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 2147483648], threads = [4, 8], warps = [4, 1], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{expected warps to multiply to at most 32 (1024 threads)}}
func.func @f(%t: tensor<64x64xf32, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 65536], order = [1, 0]>>) {
  return
}

// -----

// expected-error @+1 {{expected at most 32 warps (1024 threads) in the warp grid, got [4, 65536]}}
func.func @f(%t: tensor<64x64xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 65536]>>) {
  return
}

// -----

// expected-error @+1 {{expected at most 8 warpgroups (1024 threads), got 16}}
func.func @f(%t: tensor<1024x64xf32, #tilegpu.wgmma<warpgroups = 16>>) {
  return
}

// -----

// TMA adds floating-point elements only (here: i32).
func.func @f(%m: !tilegpu.tensor_map<16x32xi32, #tilegpu.padded<0>>, %s: !tilegpu.smem<16x32xi32, #tilegpu.padded<0>>, %i: i32) {
  // expected-error @+1 {{'tilegpu.tma_store' op adds f32, f16 or bf16 elements, got 'i32'}}
  tilegpu.tma_store add %s, %m[%i, %i] : !tilegpu.smem<16x32xi32, #tilegpu.padded<0>>, !tilegpu.tensor_map<16x32xi32, #tilegpu.padded<0>>
  return
}

// -----

// local_store matrix takes mma C fragments of 16-bit elements only.
func.func @f(%x: tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>) {
  %s = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  // expected-error @+1 {{'tilegpu.local_store' op with matrix expects 16-bit mma C fragments of whole 8x8 blocks, four or more a thread, into a swizzled buffer}}
  tilegpu.local_store matrix %x, %s : tensor<64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>>, !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
  return
}

// -----

func.func @f(%x: tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>) {
  %s = tilegpu.alloc : !tilegpu.smem<64x64xf32, #tilegpu.swizzled<128>>
  // expected-error @+1 {{'tilegpu.local_store' op with matrix expects 16-bit mma C fragments}}
  tilegpu.local_store matrix %x, %s : tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1>>, !tilegpu.smem<64x64xf32, #tilegpu.swizzled<128>>
  return
}

// -----

func.func @f(%t: i32, %i: i32) {
  %b = tilegpu.alloc : !tilegpu.smem<2x4xi32, #tilegpu.padded<0>>
  // expected-error @+1 {{'tilegpu.scalar_store' op expected a one-dimensional buffer, got '!tilegpu.smem<2x4xi32, #tilegpu.padded<0>>'}}
  tilegpu.scalar_store %t, %b[%i] : i32, !tilegpu.smem<2x4xi32, #tilegpu.padded<0>>
  return
}

// -----

func.func @f(%i: i32) -> i64 {
  %b = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  // expected-error @+1 {{'tilegpu.scalar_load' op expected the buffer's element type 'i32', got 'i64'}}
  %r = tilegpu.scalar_load %b[%i] : !tilegpu.smem<4xi32, #tilegpu.padded<0>> -> i64
  return %r : i64
}

// -----

func.func @f(%t: i32) {
  %c4 = arith.constant 4 : i32
  %b = tilegpu.alloc : !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  // expected-error @+1 {{'tilegpu.scalar_store' op expected an element index in [0, 4), got 4}}
  tilegpu.scalar_store %t, %b[%c4] : i32, !tilegpu.smem<4xi32, #tilegpu.padded<0>>
  return
}
