// tilegpu-lower-dots: each tile.dot becomes tilegpu.mma (operands retyped
// to the mma.sync fragment layouts) or, on sm_90a with wgmma,
// warpgroup_dot + dot_wait with B staged in a swizzled buffer.
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots="arch=sm_80" | FileCheck %s --check-prefix=SM80
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots="arch=sm_90a wgmma=true" | FileCheck %s --check-prefix=SM90
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots="arch=sm_90a wgmma=false" | FileCheck %s --check-prefix=SM80

#acc = #tilegpu.mma<warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// Both operands are block loads used only by the dot: retyped, no conversion.
// SM80-LABEL: func.func @loads
// SM80: tile.load_block %{{.*}} -> tensor<64x32xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>
// SM80: tile.load_block %{{.*}} -> tensor<32x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
// SM80-NOT: convert_layout
// SM80: tilegpu.mma %
// SM80-NOT: tile.dot
// The wgmma form: B stored into a 128-byte-swizzled buffer right after it
// is loaded (its load retyped to 16 bytes of a row per thread, whatever
// layout it had: its registers only pass through), A in registers, the
// accumulators back from dot_wait.
// SM90: #[[ROWS:.*]] = #tilegpu.linear<reg = {{\[\[}}0, 1], [0, 2], [0, 4], [16, 0]], lane = {{\[\[}}0, 8], [0, 16], [0, 32], [1, 0], [2, 0]], warp = {{\[\[}}4, 0], [8, 0]]>
// SM90-LABEL: func.func @loads
// SM90: %[[A:.*]] = tile.load_block %{{.*}} -> tensor<64x32xbf16, #tilegpu.mma_operand<index = 0, warps = [4, 1]>>
// SM90: %[[B:.*]] = tile.load_block %{{.*}} -> tensor<32x64xbf16, #[[ROWS]]>
// SM90-NEXT: %[[BUF:.*]] = tilegpu.alloc : !tilegpu.smem<32x64xbf16, #tilegpu.swizzled<128>>
// SM90-NEXT: tilegpu.local_store %[[B]], %[[BUF]]
// SM90: %[[T:.*]] = tilegpu.warpgroup_dot %[[A]], %[[BUF]], %{{.*}} :
// SM90: tilegpu.dot_wait %[[T]] {pending = 0 : i32}
// SM90-NOT: tile.dot
func.func @loads(%da: !tile.desc<64x32xbf16>, %db: !tile.desc<32x64xbf16>, %c: tensor<64x64xf32, #acc>, %i: i32) -> tensor<64x64xf32, #acc> {
  %a = tile.load_block %da[%i, %i] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16, #bl>
  %b = tile.load_block %db[%i, %i] : !tile.desc<32x64xbf16> -> tensor<32x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>>
  %d = tile.dot %a, %b, %c : tensor<64x32xbf16, #bl>, tensor<32x64xbf16, #tilegpu.mma_operand<index = 1, warps = [4, 1]>> -> tensor<64x64xf32, #acc>
  return %d : tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [2, 2]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// A computed in the kernel, and read twice: converted, not retyped. The
// warp grid [2, 2] is not wgmma's: mma.sync on every arch.
// SM80-LABEL: func.func @computed
// SM80: %[[X:.*]] = arith.addf
// SM80: tilegpu.convert_layout %[[X]] : tensor<32x32xbf16, #tilegpu.blocked{{.*}}> -> tensor<32x32xbf16, #tilegpu.mma_operand<index = 0, warps = [2, 2]>>
// SM80: tilegpu.convert_layout %[[X]] : {{.*}} -> tensor<32x32xbf16, #tilegpu.mma_operand<index = 1, warps = [2, 2]>>
// SM80: tilegpu.mma %
// SM90-LABEL: func.func @computed
// SM90-NOT: warpgroup_dot
// SM90: tilegpu.mma
func.func @computed(%x: tensor<32x32xbf16, #bl>, %c: tensor<32x32xf32, #acc>) -> tensor<32x32xf32, #acc> {
  %a = arith.addf %x, %x : tensor<32x32xbf16, #bl>
  %d = tile.dot %a, %a, %c : tensor<32x32xbf16, #bl>, tensor<32x32xbf16, #bl> -> tensor<32x32xf32, #acc>
  return %d : tensor<32x32xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [8, 4], warps = [4, 1], order = [1, 0]>
// B rows of 64 bytes (N = 32): no 128-byte swizzle, so mma.sync on sm_90a.
// SM90-LABEL: func.func @narrow_b
// SM90-NOT: warpgroup_dot
// SM90: tilegpu.mma
func.func @narrow_b(%a: tensor<64x16xbf16, #a>, %db: !tile.desc<16x32xbf16>, %c: tensor<64x32xf32, #acc>, %i: i32) -> tensor<64x32xf32, #acc> {
  %b = tile.load_block %db[%i, %i] : !tile.desc<16x32xbf16> -> tensor<16x32xbf16, #bl>
  %d = tile.dot %a, %b, %c : tensor<64x16xbf16, #a>, tensor<16x32xbf16, #bl> -> tensor<64x32xf32, #acc>
  return %d : tensor<64x32xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [8, 4], warps = [4, 1], order = [1, 0]>
// A splat B whose rows are too narrow for a swizzle (the forward's ones,
// row_sums=dot: 8 columns, 16 bytes): wgmma reads the same splat as Bᵀ,
// 8 rows of 128 keys (256 bytes, 128-byte swizzle), made once for both
// dots. A splat whose transposed rows are narrow too stays on mma.sync.
// SM90-LABEL: func.func @splat_b
// SM90: %[[T:.*]] = arith.constant dense<1.000000e+00> : tensor<8x128xbf16
// SM90-NEXT: %[[BUF:.*]] = tilegpu.alloc : !tilegpu.smem<8x128xbf16, #tilegpu.swizzled<128>>
// SM90-NEXT: tilegpu.local_store %[[T]], %[[BUF]]
// SM90-NOT: tilegpu.alloc
// SM90: tilegpu.warpgroup_dot %{{.*}}, %[[BUF]], %{{.*}} transpose_b
// SM90: tilegpu.warpgroup_dot %{{.*}}, %[[BUF]], %{{.*}} transpose_b
// SM90: tilegpu.mma
// SM80-LABEL: func.func @splat_b
// SM80-NOT: tensor<8x128
// SM80-NOT: warpgroup_dot
// SM80-COUNT-3: tilegpu.mma
func.func @splat_b(%p: tensor<64x128xbf16, #a>, %p2: tensor<64x128xbf16, #a>, %p3: tensor<64x16xbf16, #a>, %c: tensor<64x8xf32, #acc>) -> (tensor<64x8xf32, #acc>, tensor<64x8xf32, #acc>, tensor<64x8xf32, #acc>) {
  %ones = arith.constant dense<1.0> : tensor<128x8xbf16, #bl>
  %narrow = arith.constant dense<1.0> : tensor<16x8xbf16, #bl>
  %d = tile.dot %p, %ones, %c : tensor<64x128xbf16, #a>, tensor<128x8xbf16, #bl> -> tensor<64x8xf32, #acc>
  %d2 = tile.dot %p2, %ones, %d : tensor<64x128xbf16, #a>, tensor<128x8xbf16, #bl> -> tensor<64x8xf32, #acc>
  %d3 = tile.dot %p3, %narrow, %d2 : tensor<64x16xbf16, #a>, tensor<16x8xbf16, #bl> -> tensor<64x8xf32, #acc>
  return %d, %d2, %d3 : tensor<64x8xf32, #acc>, tensor<64x8xf32, #acc>, tensor<64x8xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#a = #tilegpu.mma_operand<index = 0, warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// Two dots read one transposed block (two row groups, S = Q Kᵀ): wgmma
// stages the untransposed block once, and both read it with transpose_b;
// mma.sync reads the block in the transposed B layout, one load.
// SM90-LABEL: func.func @shared_transposed_b
// SM90: tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
// SM90-NOT: tilegpu.alloc
// SM90-COUNT-1: tilegpu.local_store
// SM90-NOT: tile.trans
// SM90: tilegpu.warpgroup_dot {{.*}} transpose_b
// SM90: tilegpu.warpgroup_dot {{.*}} transpose_b
// SM80-LABEL: func.func @shared_transposed_b
// SM80-NOT: convert_layout
// SM80: tile.trans
// SM80-COUNT-2: tilegpu.mma
func.func @shared_transposed_b(%q0: tensor<64x64xbf16, #a>, %q1: tensor<64x64xbf16, #a>, %dk: !tile.desc<1x64x64xbf16>, %c: tensor<64x64xf32, #acc>, %i: i32) -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>) {
  %k3 = tile.load_block %dk[%i, %i, %i] : !tile.desc<1x64x64xbf16> -> tensor<1x64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>>
  %k = tile.reshape %k3 : tensor<1x64x64xbf16, #tilegpu.blocked<size_per_thread = [1, 1, 8], threads = [1, 4, 8], warps = [1, 4, 1], order = [2, 1, 0]>> -> tensor<64x64xbf16, #bl>
  %kt = tile.trans %k order = [1, 0] : tensor<64x64xbf16, #bl> -> tensor<64x64xbf16, #bl>
  %s0 = tile.dot %q0, %kt, %c : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
  %s1 = tile.dot %q1, %kt, %c : tensor<64x64xbf16, #a>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
  return %s0, %s1 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// With a-in-shared, a loop-invariant A (Q) is stored once before the loop
// and read by descriptor; a B of the loop is staged in the loop.
// RUN: tilec-opt %s -split-input-file --tilegpu-lower-dots="arch=sm_90a wgmma=true a-in-shared=true" | FileCheck %s --check-prefix=QS
// QS-LABEL: func.func @resident_a
// QS: %[[Q:.*]] = tile.load_block
// QS-NEXT: %[[QB:.*]] = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
// QS-NEXT: tilegpu.local_store %[[Q]], %[[QB]]
// QS: scf.for
// QS: tilegpu.warpgroup_dot %[[QB]], %{{.*}}, %{{.*}} : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
func.func @resident_a(%dq: !tile.desc<64x64xbf16>, %dk: !tile.desc<64x64xbf16>, %n: i32) -> tensor<64x64xf32, #acc> {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %q = tile.load_block %dq[%c0, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<64x64xf32, #acc>) : i32 {
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
    %d = tile.dot %q, %k, %acc : tensor<64x64xbf16, #bl>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
    scf.yield %d : tensor<64x64xf32, #acc>
  }
  return %r : tensor<64x64xf32, #acc>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// With a-in-shared, a block loaded in the loop that only dots read is A
// from its staging buffer too: one buffer for Q as A (S = Q·Kᵀ) and as B
// (dK += dSᵀ·Q), which the streams pass makes a ring slot. A block that
// anything else reads (V, added here) stays A in registers, and so does a
// loop-invariant A that is not a block load (P, an argument here: the
// overlapped forward's P in its last P·V's loop of one step).
// QS-LABEL: func.func @streamed_a
// QS: scf.for
// QS-NEXT: %[[Q:.*]] = tile.load_block
// QS-NEXT: %[[QB:.*]] = tilegpu.alloc : !tilegpu.smem<64x64xbf16, #tilegpu.swizzled<128>>
// QS-NEXT: tilegpu.local_store %[[Q]], %[[QB]]
// QS: tilegpu.warpgroup_dot %[[QB]], %{{.*}}, %{{.*}} : !tilegpu.smem
// QS: tilegpu.warpgroup_dot %{{.*}}, %[[QB]], %{{.*}} : tensor<64x64xbf16, #tilegpu.mma_operand
// QS: %[[V:.*]] = tilegpu.convert_layout
// QS-NEXT: tilegpu.warpgroup_dot %[[V]], %{{.*}}, %{{.*}} : tensor<64x64xbf16, #tilegpu.mma_operand
func.func @streamed_a(%dq: !tile.desc<64x64xbf16>, %dk: !tile.desc<64x64xbf16>,
                      %p: tensor<64x64xbf16, #bl>, %n: i32)
    -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xbf16, #bl>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #acc>
  %r:3 = scf.for %i = %c0 to %n step %c64 iter_args(%s = %zero, %g = %zero, %sum = %p)
      -> (tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xbf16, #bl>) : i32 {
    %q = tile.load_block %dq[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
    %k = tile.load_block %dk[%i, %c0] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
    %v = tile.load_block %dk[%c0, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
    %s1 = tile.dot %q, %k, %s : tensor<64x64xbf16, #bl>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
    %g1 = tile.dot %p, %q, %g : tensor<64x64xbf16, #bl>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
    %s2 = tile.dot %v, %k, %s1 : tensor<64x64xbf16, #bl>, tensor<64x64xbf16, #bl> -> tensor<64x64xf32, #acc>
    %sum1 = arith.addf %sum, %v : tensor<64x64xbf16, #bl>
    scf.yield %s2, %g1, %sum1 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xbf16, #bl>
  }
  return %r#0, %r#1, %r#2 : tensor<64x64xf32, #acc>, tensor<64x64xf32, #acc>, tensor<64x64xbf16, #bl>
}

// -----

#acc = #tilegpu.mma<warps = [4, 1]>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [4, 1], order = [1, 0]>
// B with rows of 64 bytes (32 columns: a head dim's narrow column tile):
// in a kernel marked tilec.narrow_wgmma, staged in a 64-byte-swizzled
// buffer for wgmma; elsewhere (@narrow_unmarked) mma.sync.
// SM90-LABEL: func.func @narrow_marked
// SM90: tilegpu.alloc : !tilegpu.smem<64x32xbf16, #tilegpu.swizzled<64>>
// SM90: tilegpu.warpgroup_dot
// SM90-LABEL: func.func @narrow_unmarked
// SM90-NOT: tilegpu.warpgroup_dot
// SM90: tilegpu.mma
func.func @narrow_marked(%da: !tile.desc<64x64xbf16>, %db: !tile.desc<64x32xbf16>, %c: tensor<64x32xf32, #acc>, %i: i32) -> tensor<64x32xf32, #acc> attributes {tilec.narrow_wgmma} {
  %a = tile.load_block %da[%i, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
  %b = tile.load_block %db[%i, %i] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16, #bl>
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16, #bl>, tensor<64x32xbf16, #bl> -> tensor<64x32xf32, #acc>
  return %d : tensor<64x32xf32, #acc>
}
func.func @narrow_unmarked(%da: !tile.desc<64x64xbf16>, %db: !tile.desc<64x32xbf16>, %c: tensor<64x32xf32, #acc>, %i: i32) -> tensor<64x32xf32, #acc> {
  %a = tile.load_block %da[%i, %i] : !tile.desc<64x64xbf16> -> tensor<64x64xbf16, #bl>
  %b = tile.load_block %db[%i, %i] : !tile.desc<64x32xbf16> -> tensor<64x32xbf16, #bl>
  %d = tile.dot %a, %b, %c : tensor<64x64xbf16, #bl>, tensor<64x32xbf16, #bl> -> tensor<64x32xf32, #acc>
  return %d : tensor<64x32xf32, #acc>
}

// -----

#cols = #tilegpu.wgmma<warpgroups = 1, columns = 2>
#acc = #tilegpu.wgmma<warpgroups = 2>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [8, 1], order = [1, 0]>
// The fused backward's dQ share: dS (64 queries x 128 keys) is the
// transpose of a computed dSᵀ, times K (128 keys x 128 columns) on two
// column blocks of 64 (the accumulator's columns = 2). dSᵀ is stored once,
// untransposed, in a 128-byte-swizzled buffer that wgmma reads as A with
// transpose_a; K is staged for B as usual. Without wgmma (SM80), the dot
// runs on mma.sync in its own layouts, converted in and out. dSᵀ, stored
// every step, goes by stmatrix (local_store matrix).
// SM90-LABEL: func.func @column_blocks
// SM90: %[[DST:.+]] = arith.truncf
// SM90-NEXT: %[[DSB:.+]] = tilegpu.alloc : !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>
// SM90-NEXT: tilegpu.local_store matrix %[[DST]], %[[DSB]]
// SM90: %[[KB:.+]] = tilegpu.alloc : !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>
// SM90: tilegpu.warpgroup_dot %[[DSB]], %[[KB]], %{{.+}} transpose_a : !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<128>>, !tilegpu.smem<128x128xbf16, #tilegpu.swizzled<128>>, tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
// SM90-NOT: tile.trans
// SM80-LABEL: func.func @column_blocks
// SM80: tilegpu.convert_layout %{{.+}} : tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>> -> tensor<64x128xf32, #tilegpu.mma<warps = [4, 2]>>
// SM80: tilegpu.mma %
// SM80-SAME: -> tensor<64x128xf32, #tilegpu.mma<warps = [4, 2]>>
// SM80: tilegpu.convert_layout %{{.+}} : tensor<64x128xf32, #tilegpu.mma<warps = [4, 2]>> -> tensor<64x128xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
func.func @column_blocks(%dsT32: tensor<128x64xf32, #acc>, %dk: !tile.desc<128x128xbf16>,
                         %c: tensor<64x128xf32, #cols>, %i: i32) -> tensor<64x128xf32, #cols> {
  %dsT = arith.truncf %dsT32 : tensor<128x64xf32, #acc> to tensor<128x64xbf16, #acc>
  %ds = tile.trans %dsT order = [1, 0] : tensor<128x64xbf16, #acc> -> tensor<64x128xbf16, #tilegpu.linear<reg = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32], [0, 64]]>>
  %k = tile.load_block %dk[%i, %i] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16, #bl>
  %d = tile.dot %ds, %k, %c : tensor<64x128xbf16, #tilegpu.linear<reg = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32], [0, 64]]>>, tensor<128x128xbf16, #bl> -> tensor<64x128xf32, #cols>
  return %d : tensor<64x128xf32, #cols>
}

// -----

#cols = #tilegpu.wgmma<warpgroups = 1, columns = 2>
#acc = #tilegpu.wgmma<warpgroups = 2>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [8, 1], order = [1, 0]>
#dsl = #tilegpu.linear<reg = [[1, 0], [0, 8], [8, 0], [16, 0], [32, 0]], lane = [[2, 0], [4, 0], [0, 1], [0, 2], [0, 4]], warp = [[0, 16], [0, 32], [0, 64]]>
// The same dot in a loop of a kernel marked tilec.split_staging
// (consumer_barriers=one): dSᵀ, computed every step, goes into one of two
// slots by the step's parity, (iv - lb) / step mod 2, so that a step's
// store need not wait for the other warpgroup's last read.
// SM90-LABEL: func.func @alternating_slots
// SM90: scf.for %[[IV:.+]] = %[[LB:.+]] to %{{.+}} step %[[STEP:.+]] iter_args
// SM90: %[[DST:.+]] = arith.truncf
// SM90-NEXT: %[[RING:.+]] = tilegpu.alloc {tilegpu.alternating_slots} : !tilegpu.smem<2x128x64xbf16, #tilegpu.swizzled<128>>
// SM90-NEXT: %[[SUB:.+]] = arith.subi %[[IV]], %[[LB]]
// SM90-NEXT: %[[STEPS:.+]] = arith.divui %[[SUB]], %[[STEP]]
// SM90-NEXT: %[[TWO:.+]] = arith.constant 2 : i32
// SM90-NEXT: %[[PARITY:.+]] = arith.remui %[[STEPS]], %[[TWO]]
// SM90-NEXT: %[[SLOT:.+]] = tilegpu.slot %[[RING]][%[[PARITY]]]
// SM90-NEXT: tilegpu.local_store matrix %[[DST]], %[[SLOT]]
// SM90: tilegpu.warpgroup_dot %[[SLOT]], %{{.+}}, %{{.+}} transpose_a
func.func @alternating_slots(%dsT32: tensor<128x64xf32, #acc>, %dk: !tile.desc<128x128xbf16>,
                             %c: tensor<64x128xf32, #cols>, %lb: i32, %n: i32) -> tensor<64x128xf32, #cols>
    attributes {tilec.split_staging} {
  %c64 = arith.constant 64 : i32
  %r = scf.for %i = %lb to %n step %c64 iter_args(%acc0 = %c) -> (tensor<64x128xf32, #cols>) : i32 {
    %dsT = arith.truncf %dsT32 : tensor<128x64xf32, #acc> to tensor<128x64xbf16, #acc>
    %ds = tile.trans %dsT order = [1, 0] : tensor<128x64xbf16, #acc> -> tensor<64x128xbf16, #dsl>
    %k = tile.load_block %dk[%i, %i] : !tile.desc<128x128xbf16> -> tensor<128x128xbf16, #bl>
    %d = tile.dot %ds, %k, %acc0 : tensor<64x128xbf16, #dsl>, tensor<128x128xbf16, #bl> -> tensor<64x128xf32, #cols>
    scf.yield %d : tensor<64x128xf32, #cols>
  }
  return %r : tensor<64x128xf32, #cols>
}

// -----

#cols = #tilegpu.wgmma<warpgroups = 1, columns = 2>
#bl = #tilegpu.blocked<size_per_thread = [1, 8], threads = [4, 8], warps = [8, 1], order = [1, 0]>
// Column blocks of 32 bf16 columns are 64 bytes wide: B gets a
// 64-byte-swizzled buffer (each warpgroup's wgmma reads one whole column
// block of it), in any kernel.
// SM90-LABEL: func.func @narrow_column_blocks
// SM90: tilegpu.alloc : !tilegpu.smem<128x64xbf16, #tilegpu.swizzled<64>>
// SM90: tilegpu.warpgroup_dot {{.+}} tensor<64x64xf32, #tilegpu.wgmma<warpgroups = 1, columns = 2>>
func.func @narrow_column_blocks(%da: !tile.desc<64x128xbf16>, %dk: !tile.desc<128x64xbf16>,
                                %c: tensor<64x64xf32, #cols>, %i: i32) -> tensor<64x64xf32, #cols> {
  %a = tile.load_block %da[%i, %i] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16, #bl>
  %k = tile.load_block %dk[%i, %i] : !tile.desc<128x64xbf16> -> tensor<128x64xbf16, #bl>
  %d = tile.dot %a, %k, %c : tensor<64x128xbf16, #bl>, tensor<128x64xbf16, #bl> -> tensor<64x64xf32, #cols>
  return %d : tensor<64x64xf32, #cols>
}
