// One case per verifier message of the tile dialect's types and ops.
// RUN: tilec-opt %s -split-input-file -verify-diagnostics

func.func @program_id_axis() -> i32 {
  // expected-error @+1 {{'tile.program_id' op expected grid axis 0, 1 or 2, got 3}}
  %0 = tile.program_id 3
  return %0 : i32
}

// -----

func.func @num_programs_axis() -> i32 {
  // expected-error @+1 {{'tile.num_programs' op expected grid axis 0, 1 or 2, got -1}}
  %0 = tile.num_programs -1
  return %0 : i32
}

// -----

// expected-error @+1 {{expected pointee type to be an integer or float type, got 'index'}}
func.func @ptr_pointee(%p: !tile.ptr<index>)

// -----

// expected-error @+1 {{expected a block of rank 1 or more}}
func.func @desc_rank(%d: !tile.desc<bf16>)

// -----

// expected-error @+1 {{expected positive block dimensions}}
func.func @desc_dims(%d: !tile.desc<0x64xbf16>)

// -----

// expected-error @+1 {{expected descriptor element type to be an integer or float type, got 'index'}}
func.func @desc_element(%d: !tile.desc<64xindex>)

// -----

func.func @make_desc_rank(%base: !tile.ptr<bf16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_desc' op expected 2 shape and 2 stride operands (the block rank), got 1 and 2}}
  %d = tile.make_desc %base, [%n], [%s, %s] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  return
}

// -----

func.func @make_desc_element(%base: !tile.ptr<f16>, %n: i32, %s: i64) {
  // expected-error @+1 {{'tile.make_desc' op expected base pointee type 'f16' to match the descriptor element type 'bf16'}}
  %d = tile.make_desc %base, [%n], [%s] : !tile.ptr<f16> -> !tile.desc<64xbf16>
  return
}

// -----

func.func @load_block_offsets(%d: !tile.desc<64x128xbf16>, %i: i32) {
  // expected-error @+1 {{'tile.load_block' op expected 2 offsets (the block rank), got 1}}
  %b = tile.load_block %d[%i] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  return
}

// -----

func.func @load_block_type(%d: !tile.desc<64x128xbf16>, %i: i32) {
  // expected-error @+1 {{'tile.load_block' op expected result of type 'tensor<64x128xbf16>' (the descriptor block), got 'tensor<64x64xbf16>'}}
  %b = tile.load_block %d[%i, %i] : !tile.desc<64x128xbf16> -> tensor<64x64xbf16>
  return
}

// -----

func.func @store_block_type(%d: !tile.desc<64x128xbf16>, %i: i32, %v: tensor<64x128xf32>) {
  // expected-error @+1 {{'tile.store_block' op expected value of type 'tensor<64x128xbf16>' (the descriptor block), got 'tensor<64x128xf32>'}}
  tile.store_block %d[%i, %i], %v : !tile.desc<64x128xbf16>, tensor<64x128xf32>
  return
}

// -----

func.func @atomic_add_bf16(%d: !tile.desc<64x128xbf16>, %i: i32, %v: tensor<64x128xbf16>) {
  // expected-error @+1 {{'tile.atomic_add_block' op expected a descriptor of f32 elements, got 'bf16'}}
  tile.atomic_add_block %d[%i, %i], %v : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
  return
}

// -----

func.func @atomic_add_shape(%d: !tile.desc<64x128xf32>, %i: i32, %v: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.atomic_add_block' op expected value of type 'tensor<64x128xf32>' (the descriptor block), got 'tensor<64x64xf32>'}}
  tile.atomic_add_block %d[%i, %i], %v : !tile.desc<64x128xf32>, tensor<64x64xf32>
  return
}

// -----

func.func @addptr_scalar(%p: !tile.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tile.addptr' op expected a scalar offset for a scalar pointer}}
  %q = tile.addptr %p, %o : !tile.ptr<f32>, tensor<4xi32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<4x!tile.ptr<f32>>, %o: tensor<8xi32>) {
  // expected-error @+1 {{'tile.addptr' op expected offsets of shape 4 (the pointers' shape), got 8}}
  %q = tile.addptr %p, %o : tensor<4x!tile.ptr<f32>>, tensor<8xi32>
  return
}

// -----

func.func @addptr_offset_type(%p: tensor<4x!tile.ptr<f32>>, %o: tensor<4xf32>) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be}}
  %q = tile.addptr %p, %o : tensor<4x!tile.ptr<f32>>, tensor<4xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<4x!tile.ptr<f32>>, %f: f32) {
  // expected-error @+1 {{'tile.load' op expected a mask when a fill value ('other') is given}}
  %v = tile.load %p other %f : tensor<4x!tile.ptr<f32>>
  return
}

// -----

func.func @load_scalar_other_without_mask(%p: !tile.ptr<i32>, %f: i32) {
  // expected-error @+1 {{'tile.load_scalar' op expected a mask when a fill value ('other') is given}}
  %v = tile.load_scalar %p other %f : !tile.ptr<i32>
  return
}

// -----

func.func @load_scalar_of_pointers(%p: tensor<4x!tile.ptr<i32>>) {
  // expected-error @+1 {{'tile.load_scalar' op operand #0 must be}}
  %v = "tile.load_scalar"(%p) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x!tile.ptr<i32>>) -> i32
  return
}

// -----

func.func @load_mask_shape(%p: tensor<4x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask has the shape of ptr}}
  %v = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<4x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<4xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<4x!tile.ptr<f32>>, %v: tensor<4xf16>) {
  // expected-error @+1 {{'tile.store' op failed to verify that value holds the pointees of ptr}}
  "tile.store"(%p, %v) : (tensor<4x!tile.ptr<f32>>, tensor<4xf16>) -> ()
  return
}

// -----

func.func @iota_rank() {
  // expected-error @+1 {{'tile.iota' op expected a non-empty 1-D result, got 'tensor<4x4xi32>'}}
  %i = tile.iota : tensor<4x4xi32>
  return
}

// -----

func.func @splat_type(%x: f16) {
  // expected-error @+1 {{'tile.splat' op failed to verify that result element type is the scalar type}}
  %t = "tile.splat"(%x) : (f16) -> tensor<4xf32>
  return
}

// -----

func.func @broadcast_element(%t: tensor<4x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op expected result element type 'f32' (the source's), got 'f16'}}
  %b = tile.broadcast %t : tensor<4x1xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @broadcast_rank(%t: tensor<4x1xf32>) {
  // expected-error @+1 {{'tile.broadcast' op expected result of rank 2 (the source's), got 3}}
  %b = tile.broadcast %t : tensor<4x1xf32> -> tensor<2x4x8xf32>
  return
}

// -----

func.func @broadcast_dim(%t: tensor<4x2xf32>) {
  // expected-error @+1 {{'tile.broadcast' op expected source dimension 1 to be 1 or 8, got 2}}
  %b = tile.broadcast %t : tensor<4x2xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @expand_dims_axis(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected axis in [0, 1], got 2}}
  %e = tile.expand_dims %t axis = 2 : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @expand_dims_type(%t: tensor<4xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op expected result type 'tensor<1x4xf32>', got 'tensor<4x1xf32>'}}
  %e = tile.expand_dims %t axis = 0 : tensor<4xf32> -> tensor<4x1xf32>
  return
}

// -----

func.func @trans_order(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op expected order to be a permutation of [0, 2)}}
  %r = tile.trans %t order = [1, 1] : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_type(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op expected result type 'tensor<8x4xf32>', got 'tensor<4x8xf32>'}}
  %r = tile.trans %t order = [1, 0] : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @cast_shape(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.cast' op expected source and result of the same shape, got 'tensor<4x8xf32>' and 'tensor<8x4xbf16>'}}
  %r = tile.cast %t : tensor<4x8xf32> to tensor<8x4xbf16>
  return
}

// -----

func.func @dot_rank(%a: tensor<16xbf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expected 2-D operands, got ranks 1, 2 and 2}}
  %d = tile.dot %a, %b, %c : tensor<16xbf16>, tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x16xbf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expected A and B of the same element type, got 'bf16' and 'f16'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_inputs(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expected bf16, f16 or f32 inputs, got 'i8'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi8>, tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_accumulator(%a: tensor<16x16xbf16>, %c: tensor<16x16xbf16>) {
  // expected-error @+1 {{'tile.dot' op expected an f32 accumulator, got 'bf16'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xbf16>, tensor<16x16xbf16> -> tensor<16x16xbf16>
  return
}

// -----

func.func @dot_inner(%a: tensor<16x32xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x8xf32>) {
  // expected-error @+1 {{'tile.dot' op expected the columns of A (32) to equal the rows of B (16)}}
  %d = tile.dot %a, %b, %c : tensor<16x32xbf16>, tensor<16x8xbf16> -> tensor<16x8xf32>
  return
}

// -----

func.func @dot_acc_shape(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op expected an accumulator of shape 16x8, got 16x16}}
  %d = tile.dot %a, %b, %c : tensor<16x16xbf16>, tensor<16x8xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @reduce_axis(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op expected axis in [0, 2), got 2}}
  %r = tile.reduce sum %t axis = 2 : tensor<4x8xf32> -> tensor<4xf32>
  return
}

// -----

func.func @reduce_type(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op expected result type 'tensor<4xf32>', got 'tensor<8xf32>'}}
  %r = tile.reduce max %t axis = 1 : tensor<4x8xf32> -> tensor<8xf32>
  return
}

// -----

func.func @online_softmax_rank(%s: tensor<4xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op expected 2-D scores, got rank 1}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 1.0 : tensor<4xf32>, tensor<4xf32>
  return
}

// -----

func.func @online_softmax_max(%s: tensor<4x8xf32>, %m: tensor<8xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op expected a running max of shape 4 (one per score row), got 8}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 1.0 : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @online_softmax_threshold(%s: tensor<4x8xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op expected a finite rescale_threshold of at least 0, got -1}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 1.0 {rescale_threshold = -1.0 : f32} : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

func.func @scale_rows_factors(%x: tensor<4x8xf32>, %f: tensor<8xf32>) {
  // expected-error @+1 {{'tile.scale_rows' op expected one factor per row (shape 4), got 8}}
  %r = tile.scale_rows %x, %f : tensor<4x8xf32>, tensor<8xf32>
  return
}

// -----

func.func @online_softmax_scale(%s: tensor<4x8xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op expected a positive finite scale, got 0}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 0.0 : tensor<4x8xf32>, tensor<4xf32>
  return
}

// -----

func.func @online_softmax_f32(%s: tensor<4x8xbf16>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op operand #0 must be variadic of ranked tensor of 32-bit float values}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 1.0 : tensor<4x8xbf16>, tensor<4xf32>
  return
}

// -----

// Scores in parts: every part has the rows of the others (and of m).
func.func @online_softmax_part_rows(%s0: tensor<4x8xf32>, %s1: tensor<8x2xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{'tile.online_softmax' op expected every score part to have 4 rows, part 1 has 8}}
  %a, %p0, %p1, %c = tile.online_softmax %s0, %s1, %m scale = 1.0 : tensor<4x8xf32>, tensor<8x2xf32>, tensor<4xf32>
  return
}

// -----

func.func @online_softmax_no_max(%s: tensor<4x8xf32>) {
  // expected-error @+1 {{expected the scores and the running max}}
  %a, %b, %c = tile.online_softmax %s scale = 1.0 : tensor<4x8xf32>
  return
}

// -----

func.func @online_softmax_types(%s: tensor<4x8xf32>, %m: tensor<4xf32>) {
  // expected-error @+1 {{expected 2 types, got 1}}
  %a, %b, %c = tile.online_softmax %s, %m scale = 1.0 : tensor<4x8xf32>
  return
}

// -----

func.func @reshape_element(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op expected result element type 'f32' (the source's), got 'f16'}}
  %r = tile.reshape %t : tensor<4x8xf32> -> tensor<32xf16>
  return
}

// -----

func.func @reshape_size(%t: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op expected a result of 32 elements (the source's), got 16}}
  %r = tile.reshape %t : tensor<4x8xf32> -> tensor<16xf32>
  return
}

// -----

func.func @last_arrival_not_i32(%p: !tile.ptr<f32>, %n: i32) {
  // expected-error @+1 {{'tile.last_arrival' op expected a pointer to an i32 counter, got '!tile.ptr<f32>'}}
  %last = tile.last_arrival %p of %n : !tile.ptr<f32>
  return
}
