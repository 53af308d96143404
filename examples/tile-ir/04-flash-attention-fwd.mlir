// FlashAttention forward (non-causal, head dim 64) written directly in the tile
// dialect. Q, K, V, O are [heads, n, 64] bf16 row-major, LSE is [heads, n] f32.
// Grid: (ceil(n / 128), heads). Each program owns 128 query rows of one head,
// streams K and V in blocks of 64 rows, and keeps the online-softmax state
// (acc, m, l) in the loop; the n x n score matrix never leaves the tile.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --canonicalize --cse | FileCheck %s
// CHECK-LABEL: func.func @flash_attention_fwd
// CHECK: scf.for
// CHECK: tile.dot
// CHECK: tile.online_softmax
// CHECK: tile.dot
// CHECK: scf.yield
// CHECK: tile.store_block
func.func @flash_attention_fwd(%q: !tile.ptr<bf16>, %k: !tile.ptr<bf16>, %v: !tile.ptr<bf16>,
                               %o: !tile.ptr<bf16>, %lse: !tile.ptr<f32>,
                               %heads: i32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %one = arith.constant 1 : i64
  %row_stride = arith.constant 64 : i64
  %n64 = arith.extsi %n : i32 to i64
  %head_stride = arith.muli %n64, %row_stride : i64

  %qd = tile.make_desc %q, [%heads, %n, %c64], [%head_stride, %row_stride, %one] : !tile.ptr<bf16> -> !tile.desc<1x128x64xbf16>
  %kd = tile.make_desc %k, [%heads, %n, %c64], [%head_stride, %row_stride, %one] : !tile.ptr<bf16> -> !tile.desc<1x64x64xbf16>
  %vd = tile.make_desc %v, [%heads, %n, %c64], [%head_stride, %row_stride, %one] : !tile.ptr<bf16> -> !tile.desc<1x64x64xbf16>
  %od = tile.make_desc %o, [%heads, %n, %c64], [%head_stride, %row_stride, %one] : !tile.ptr<bf16> -> !tile.desc<1x128x64xbf16>
  %ld = tile.make_desc %lse, [%heads, %n], [%n64, %one] : !tile.ptr<f32> -> !tile.desc<1x128xf32>

  %block = tile.program_id 0
  %head = tile.program_id 1
  %row0 = arith.muli %block, %c128 : i32
  %q3 = tile.load_block %qd[%head, %row0, %c0] : !tile.desc<1x128x64xbf16> -> tensor<1x128x64xbf16>
  %qb = tile.reshape %q3 : tensor<1x128x64xbf16> -> tensor<128x64xbf16>

  %acc0 = arith.constant dense<0.0> : tensor<128x64xf32>
  %m0 = arith.constant dense<0xFF800000> : tensor<128xf32>
  %l0 = arith.constant dense<0.0> : tensor<128xf32>
  %zeros = arith.constant dense<0.0> : tensor<128x64xf32>
  %neg_inf = arith.constant dense<0xFF800000> : tensor<128x64xf32>
  %cols = tile.iota : tensor<64xi32>
  %n_cols = tile.splat %n : tensor<64xi32>

  %acc, %m, %l = scf.for %j = %c0 to %n step %c64
      iter_args(%acc_i = %acc0, %m_i = %m0, %l_i = %l0)
      -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>) : i32 {
    %k3 = tile.load_block %kd[%head, %j, %c0] : !tile.desc<1x64x64xbf16> -> tensor<1x64x64xbf16>
    %kb = tile.reshape %k3 : tensor<1x64x64xbf16> -> tensor<64x64xbf16>
    %kt = tile.trans %kb order = [1, 0] : tensor<64x64xbf16> -> tensor<64x64xbf16>
    %s = tile.dot %qb, %kt, %zeros : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>

    // Key columns at or past n (the ragged last block) score -inf.
    %j_cols = tile.splat %j : tensor<64xi32>
    %col = arith.addi %j_cols, %cols : tensor<64xi32>
    %valid = arith.cmpi slt, %col, %n_cols : tensor<64xi32>
    %valid_row = tile.expand_dims %valid axis = 0 : tensor<64xi1> -> tensor<1x64xi1>
    %valid_2d = tile.broadcast %valid_row : tensor<1x64xi1> -> tensor<128x64xi1>
    %s_masked = arith.select %valid_2d, %s, %neg_inf : tensor<128x64xi1>, tensor<128x64xf32>

    %m_new, %p, %alpha = tile.online_softmax %s_masked, %m_i scale = 0.125 : tensor<128x64xf32>, tensor<128xf32>
    %alpha_col = tile.expand_dims %alpha axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
    %alpha_2d = tile.broadcast %alpha_col : tensor<128x1xf32> -> tensor<128x64xf32>
    %acc_scaled = arith.mulf %acc_i, %alpha_2d : tensor<128x64xf32>
    %p16 = tile.cast %p : tensor<128x64xf32> to tensor<128x64xbf16>
    %v3 = tile.load_block %vd[%head, %j, %c0] : !tile.desc<1x64x64xbf16> -> tensor<1x64x64xbf16>
    %vb = tile.reshape %v3 : tensor<1x64x64xbf16> -> tensor<64x64xbf16>
    %acc_next = tile.dot %p16, %vb, %acc_scaled : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
    %row_sum = tile.reduce sum %p axis = 1 : tensor<128x64xf32> -> tensor<128xf32>
    %l_scaled = arith.mulf %l_i, %alpha : tensor<128xf32>
    %l_next = arith.addf %l_scaled, %row_sum : tensor<128xf32>
    scf.yield %acc_next, %m_new, %l_next : tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>
  }

  // O = acc / l; a row with l = 0 (nothing seen) keeps acc = 0, so divide by 1.
  %zero_l = arith.constant dense<0.0> : tensor<128xf32>
  %one_l = arith.constant dense<1.0> : tensor<128xf32>
  %empty = arith.cmpf oeq, %l, %zero_l : tensor<128xf32>
  %l_safe = arith.select %empty, %one_l, %l : tensor<128xi1>, tensor<128xf32>
  %l_col = tile.expand_dims %l_safe axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  %l_2d = tile.broadcast %l_col : tensor<128x1xf32> -> tensor<128x64xf32>
  %out = arith.divf %acc, %l_2d : tensor<128x64xf32>
  %out16 = tile.cast %out : tensor<128x64xf32> to tensor<128x64xbf16>
  %out3 = tile.reshape %out16 : tensor<128x64xbf16> -> tensor<1x128x64xbf16>
  tile.store_block %od[%head, %row0, %c0], %out3 : !tile.desc<1x128x64xbf16>, tensor<1x128x64xbf16>

  // lse = (m + log2 l) * ln 2; -inf for a row that saw only masked scores.
  %ln2 = arith.constant dense<0.693147182> : tensor<128xf32>
  %log2_l = math.log2 %l : tensor<128xf32>
  %lse2 = arith.addf %m, %log2_l : tensor<128xf32>
  %lse_e = arith.mulf %lse2, %ln2 : tensor<128xf32>
  %lse_2d = tile.reshape %lse_e : tensor<128xf32> -> tensor<1x128xf32>
  tile.store_block %ld[%head, %row0], %lse_2d : !tile.desc<1x128xf32>, tensor<1x128xf32>
  return
}
