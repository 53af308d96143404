// Round trip of every tile op, in the custom form and in the generic form.
// RUN: tilec-opt %s | tilec-opt | FileCheck %s
// RUN: tilec-opt %s --mlir-print-op-generic | tilec-opt | FileCheck %s

// CHECK-LABEL: func.func @grid
func.func @grid() -> (i32, i32) {
  // CHECK: tile.program_id 0
  %pid = tile.program_id 0
  // CHECK: tile.num_programs 1
  %n = tile.num_programs 1
  return %pid, %n : i32, i32
}

// CHECK-LABEL: func.func @types
// CHECK-SAME: !tile.ptr<bf16>
// CHECK-SAME: !tile.desc<64x128xbf16>
// CHECK-SAME: tensor<16x!tile.ptr<i8>>
func.func @types(%p: !tile.ptr<bf16>, %d: !tile.desc<64x128xbf16>, %t: tensor<16x!tile.ptr<i8>>) {
  return
}

// CHECK-LABEL: func.func @blocks
func.func @blocks(%base: !tile.ptr<bf16>, %rows: i32, %cols: i32, %ld: i64, %one: i64,
                  %r: i32, %c: i32) -> tensor<64x128xbf16> {
  // CHECK: %[[D:.+]] = tile.make_desc %{{.+}}, [%{{.+}}, %{{.+}}], [%{{.+}}, %{{.+}}] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  %d = tile.make_desc %base, [%rows, %cols], [%ld, %one] : !tile.ptr<bf16> -> !tile.desc<64x128xbf16>
  // CHECK: %[[B:.+]] = tile.load_block %[[D]][%{{.+}}, %{{.+}}] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  %blk = tile.load_block %d[%r, %c] : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  // CHECK: tile.load_block %[[D]][%{{.+}}, %{{.+}}] padding = nan : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  %pad = tile.load_block %d[%r, %c] padding = nan : !tile.desc<64x128xbf16> -> tensor<64x128xbf16>
  // CHECK: tile.store_block %[[D]][%{{.+}}, %{{.+}}], %[[B]] : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
  tile.store_block %d[%r, %c], %blk : !tile.desc<64x128xbf16>, tensor<64x128xbf16>
  return %pad : tensor<64x128xbf16>
}

// CHECK-LABEL: func.func @atomic_add
func.func @atomic_add(%base: !tile.ptr<f32>, %n: i32, %ld: i64, %one: i64, %r: i32,
                      %v: tensor<64x128xf32>) {
  %d = tile.make_desc %base, [%n, %n], [%ld, %one] : !tile.ptr<f32> -> !tile.desc<64x128xf32>
  // CHECK: tile.atomic_add_block %{{.+}}[%{{.+}}, %{{.+}}], %{{.+}} : !tile.desc<64x128xf32>, tensor<64x128xf32>
  tile.atomic_add_block %d[%r, %r], %v : !tile.desc<64x128xf32>, tensor<64x128xf32>
  return
}

// CHECK-LABEL: func.func @pointers
func.func @pointers(%base: !tile.ptr<f32>, %fill: f32, %n: i32) {
  // CHECK: %[[I:.+]] = tile.iota : tensor<128xi32>
  %offs = tile.iota : tensor<128xi32>
  // CHECK: %[[P:.+]] = tile.splat %{{.+}} : tensor<128x!tile.ptr<f32>>
  %p = tile.splat %base : tensor<128x!tile.ptr<f32>>
  // CHECK: %[[Q:.+]] = tile.addptr %[[P]], %[[I]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %ptrs = tile.addptr %p, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  // CHECK: %[[S:.+]] = tile.addptr %{{.+}}, %{{.+}} : !tile.ptr<f32>, i32
  %s = tile.addptr %base, %n : !tile.ptr<f32>, i32
  // One value: unguarded, and guarded with a fill.
  // CHECK: tile.load_scalar %[[S]] : <f32>
  %one = tile.load_scalar %s : !tile.ptr<f32>
  %c0 = arith.constant 0 : i32
  %inside = arith.cmpi sgt, %n, %c0 : i32
  // CHECK: tile.load_scalar %[[S]] mask %{{.+}} other %{{.+}} : <f32>
  %guarded = tile.load_scalar %s mask %inside other %fill : !tile.ptr<f32>
  %limit = tile.splat %n : tensor<128xi32>
  %inb = arith.cmpi slt, %offs, %limit : tensor<128xi32>
  // CHECK: %[[V:.+]] = tile.load %[[Q]] mask %{{.+}} other %{{.+}} : tensor<128x!tile.ptr<f32>>
  %v = tile.load %ptrs mask %inb other %fill : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.load %[[Q]] : tensor<128x!tile.ptr<f32>>
  %w = tile.load %ptrs : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.load %[[Q]] mask %{{.+}} : tensor<128x!tile.ptr<f32>>
  %x = tile.load %ptrs mask %inb : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %[[Q]], %[[V]] mask %{{.+}} : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %v mask %inb : tensor<128x!tile.ptr<f32>>
  // CHECK: tile.store %[[Q]], %{{.+}} : tensor<128x!tile.ptr<f32>>
  tile.store %ptrs, %w : tensor<128x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%x: f32, %m: tensor<128xf32>, %col: tensor<128x1xf32>,
                  %k: tensor<64x128xbf16>) -> (tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x1xf32>, tensor<128x64xbf16>) {
  // CHECK: tile.splat %{{.+}} : tensor<128x64xf32>
  %t = tile.splat %x : tensor<128x64xf32>
  // CHECK: tile.broadcast %{{.+}} : tensor<128x1xf32> -> tensor<128x64xf32>
  %b = tile.broadcast %col : tensor<128x1xf32> -> tensor<128x64xf32>
  // CHECK: tile.expand_dims %{{.+}} axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  %c = tile.expand_dims %m axis = 1 : tensor<128xf32> -> tensor<128x1xf32>
  // CHECK: tile.trans %{{.+}} order = [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
  %kt = tile.trans %k order = [1, 0] : tensor<64x128xbf16> -> tensor<128x64xbf16>
  return %t, %b, %c, %kt : tensor<128x64xf32>, tensor<128x64xf32>, tensor<128x1xf32>, tensor<128x64xbf16>
}

// CHECK-LABEL: func.func @casts
func.func @casts(%p: tensor<128x64xf32>, %i: tensor<128xi32>, %x: f32) -> (tensor<128x64xbf16>, tensor<128xf32>, i32) {
  // CHECK: tile.cast %{{.+}} : tensor<128x64xf32> to tensor<128x64xbf16>
  %p16 = tile.cast %p : tensor<128x64xf32> to tensor<128x64xbf16>
  // CHECK: tile.cast %{{.+}} : tensor<128xi32> to tensor<128xf32>
  %f = tile.cast %i : tensor<128xi32> to tensor<128xf32>
  // CHECK: tile.cast %{{.+}} : f32 to i32
  %s = tile.cast %x : f32 to i32
  return %p16, %f, %s : tensor<128x64xbf16>, tensor<128xf32>, i32
}

// CHECK-LABEL: func.func @compute
func.func @compute(%q: tensor<128x64xbf16>, %kt: tensor<64x64xbf16>, %a32: tensor<16x8xf32>,
                   %b32: tensor<8x16xf32>, %c32: tensor<16x16xf32>, %h: tensor<16x16xf16>,
                   %m: tensor<128xf32>, %v: tensor<128xf32>, %s16: tensor<128x16xf32>) -> f32 {
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  // CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
  %s = tile.dot %q, %kt, %zero : tensor<128x64xbf16>, tensor<64x64xbf16> -> tensor<128x64xf32>
  // CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
  %d32 = tile.dot %a32, %b32, %c32 : tensor<16x8xf32>, tensor<8x16xf32> -> tensor<16x16xf32>
  // CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  %d16 = tile.dot %h, %h, %c32 : tensor<16x16xf16>, tensor<16x16xf16> -> tensor<16x16xf32>
  // CHECK: tile.reduce max %{{.+}} axis = 1 : tensor<128x64xf32> -> tensor<128xf32>
  %rowmax = tile.reduce max %s axis = 1 : tensor<128x64xf32> -> tensor<128xf32>
  // CHECK: tile.reduce min %{{.+}} axis = 0 : tensor<128x64xf32> -> tensor<64xf32>
  %colmin = tile.reduce min %s axis = 0 : tensor<128x64xf32> -> tensor<64xf32>
  // CHECK: tile.reduce sum %{{.+}} axis = 0 : tensor<128xf32> -> f32
  %total = tile.reduce sum %v axis = 0 : tensor<128xf32> -> f32
  // CHECK: %[[MN:.+]], %[[P:.+]], %[[AL:.+]] = tile.online_softmax %{{.+}}, %{{.+}} scale = 1.250000e-01 : tensor<128x64xf32>, tensor<128xf32>
  %m_new, %p, %alpha = tile.online_softmax %s, %m scale = 0.125 : tensor<128x64xf32>, tensor<128xf32>
  // A key block in parts (64 + 16 keys): one p per part, of its part's type.
  // CHECK: %{{.+}}, %{{.+}}:2, %{{.+}} = tile.online_softmax %{{.+}}, %{{.+}}, %{{.+}} scale = 1.250000e-01 : tensor<128x64xf32>, tensor<128x16xf32>, tensor<128xf32>
  %parts:4 = tile.online_softmax %s, %s16, %m scale = 0.125 : tensor<128x64xf32>, tensor<128x16xf32>, tensor<128xf32>
  // The lazy rescale's threshold, and the rescale of the accumulator.
  // CHECK: tile.online_softmax %{{.+}}, %{{.+}} scale = 1.250000e-01 {rescale_threshold = 8.000000e+00 : f32} : tensor<128x64xf32>, tensor<128xf32>
  %lazy:3 = tile.online_softmax %s, %m scale = 0.125 {rescale_threshold = 8.0 : f32} : tensor<128x64xf32>, tensor<128xf32>
  // CHECK: tile.scale_rows %{{.+}}, %{{.+}} : tensor<128x64xf32>, tensor<128xf32>
  %scaled = tile.scale_rows %s, %lazy#2 : tensor<128x64xf32>, tensor<128xf32>
  return %total : f32
}

// CHECK-LABEL: func.func @reshape
func.func @reshape(%q3: tensor<1x128x64xbf16>) -> tensor<128x64xbf16> {
  // CHECK: tile.reshape %{{.+}} : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
  %q2 = tile.reshape %q3 : tensor<1x128x64xbf16> -> tensor<128x64xbf16>
  return %q2 : tensor<128x64xbf16>
}

// CHECK-LABEL: func.func @last_arrival
func.func @last_arrival(%counters: !tile.ptr<i32>, %head: i32, %n: i32) -> i1 {
  %counter = tile.addptr %counters, %head : !tile.ptr<i32>, i32
  // CHECK: tile.last_arrival %{{.+}} of %{{.+}} : <i32>
  %last = tile.last_arrival %counter of %n : !tile.ptr<i32>
  return %last : i1
}
