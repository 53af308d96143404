// RUN: tilec-opt %s --tile-decompose-online-softmax | FileCheck %s

// The step becomes its definition: the row max of the raw scores scaled by
// t = c·log2(e) once per row, exp2 of s·t minus the max as one contracted
// multiply-add (marked: its argument is at most a rounding error above 0,
// or -inf), exp2 of the max difference, with -inf rows made safe (scores
// from a block argument could be masked).
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[S:.+]]: tensor<16x8xf32>, %[[M:.+]]: tensor<16xf32>)
// CHECK-DAG: %[[T:.+]] = arith.constant dense<0.180336{{[0-9]*}}> : tensor<16x8xf32>
// CHECK: %[[SCALED:.+]] = arith.mulf %[[S]], %[[T]] fastmath<contract>
// CHECK: %[[RAWMAX:.+]] = tile.reduce max %[[S]] axis = 1
// CHECK: %[[TROW:.+]] = arith.constant dense<0.180336{{[0-9]*}}> : tensor<16xf32>
// CHECK: %[[ROWMAX:.+]] = arith.mulf %[[RAWMAX]], %[[TROW]]
// CHECK: %[[MNEW:.+]] = arith.maximumf %[[M]], %[[ROWMAX]]
// CHECK: %[[EMPTY:.+]] = arith.cmpf oeq, %[[MNEW]]
// CHECK: %[[SAFE:.+]] = arith.select %[[EMPTY]], %{{.+}}, %[[MNEW]]
// CHECK: tile.expand_dims %[[SAFE]] axis = 1
// CHECK: %[[SHIFTED:.+]] = arith.subf %[[SCALED]], %{{.+}} fastmath<contract>
// CHECK: %[[P:.+]] = math.exp2 %[[SHIFTED]] {tilec.softmax_exp2}
// CHECK: %[[RESCALE:.+]] = math.exp2 %{{[^ ]+}} :
// CHECK: %[[ALPHA:.+]] = arith.select %[[EMPTY]], %{{.+}}, %[[RESCALE]]
// CHECK-NOT: tile.online_softmax
// CHECK: return %[[MNEW]], %[[P]], %[[ALPHA]]
func.func @step(%s: tensor<16x8xf32>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>) {
  %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 : tensor<16x8xf32>, tensor<16xf32>
  return %mn, %p, %a : tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>
}

// With a rescale threshold the row keeps its old maximum unless the
// block's exceeds it by more than the threshold (the lazy rescale).
// CHECK-LABEL: func.func @lazy
// CHECK-SAME: (%[[S:.+]]: tensor<16x8xf32>, %[[M:.+]]: tensor<16xf32>)
// CHECK: %[[ROWMAX:.+]] = arith.mulf %{{.+}}, %{{.+}} : tensor<16xf32>
// CHECK: %[[MAX:.+]] = arith.maximumf %[[M]], %[[ROWMAX]]
// CHECK: %[[TAU:.+]] = arith.constant dense<8.000000e+00> : tensor<16xf32>
// CHECK: %[[BOUND:.+]] = arith.addf %[[M]], %[[TAU]]
// CHECK: %[[GROWS:.+]] = arith.cmpf ogt, %[[ROWMAX]], %[[BOUND]]
// CHECK: %[[MNEW:.+]] = arith.select %[[GROWS]], %[[MAX]], %[[M]]
// CHECK: arith.cmpf oeq, %[[MNEW]]
// CHECK: return %[[MNEW]]
func.func @lazy(%s: tensor<16x8xf32>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>) {
  %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 {rescale_threshold = 8.0 : f32} : tensor<16x8xf32>, tensor<16xf32>
  return %mn, %p, %a : tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>
}

// Scores straight from a dot (an unmasked step) have a finite maximum in
// every row, so m_new is finite and neither select is needed.
// CHECK-LABEL: func.func @unmasked
// CHECK: %[[S:.+]] = tile.dot
// CHECK: %[[MNEW:.+]] = arith.maximumf
// CHECK-NOT: arith.cmpf
// CHECK-NOT: arith.select
// CHECK: tile.expand_dims %[[MNEW]] axis = 1
// CHECK: return
func.func @unmasked(%q: tensor<16x16xbf16>, %kt: tensor<16x8xbf16>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>) {
  %z = arith.constant dense<0.0> : tensor<16x8xf32>
  %s = tile.dot %q, %kt, %z : tensor<16x16xbf16>, tensor<16x8xbf16> -> tensor<16x8xf32>
  %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 : tensor<16x8xf32>, tensor<16xf32>
  return %mn, %p, %a : tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>
}

// Scores in parts (a key block of 8 + 2 keys): one row maximum of the raw
// scores over both parts, the wider part first folded to the narrower's
// columns ([16, 8] as [16, 4, 2], its maximum over the 4: within threads
// on the GPU) so that one row reduction serves both; then each part its
// own p.
// CHECK-LABEL: func.func @parts
// CHECK-SAME: (%[[S0:.+]]: tensor<16x8xf32>, %[[S1:.+]]: tensor<16x2xf32>, %[[M:.+]]: tensor<16xf32>)
// CHECK: %[[SCALED0:.+]] = arith.mulf %[[S0]], %{{.+}} fastmath<contract>
// CHECK: %[[SCALED1:.+]] = arith.mulf %[[S1]], %{{.+}} fastmath<contract>
// CHECK: %[[SPLIT:.+]] = tile.reshape %[[S0]] : tensor<16x8xf32> -> tensor<16x4x2xf32>
// CHECK: %[[FOLD:.+]] = tile.reduce max %[[SPLIT]] axis = 1 : tensor<16x4x2xf32> -> tensor<16x2xf32>
// CHECK: %[[BOTH:.+]] = arith.maximumf %[[FOLD]], %[[S1]] : tensor<16x2xf32>
// CHECK: %[[RAWMAX:.+]] = tile.reduce max %[[BOTH]] axis = 1 : tensor<16x2xf32> -> tensor<16xf32>
// CHECK-NOT: tile.reduce
// CHECK: arith.mulf %[[RAWMAX]]
// CHECK: %[[SAFE:.+]] = arith.select
// CHECK: %[[COL:.+]] = tile.expand_dims %[[SAFE]] axis = 1
// CHECK: %[[WIDE0:.+]] = tile.broadcast %[[COL]] : tensor<16x1xf32> -> tensor<16x8xf32>
// CHECK: %[[P0:.+]] = math.exp2 %{{.+}} {tilec.softmax_exp2} : tensor<16x8xf32>
// CHECK: %[[WIDE1:.+]] = tile.broadcast %[[COL]] : tensor<16x1xf32> -> tensor<16x2xf32>
// CHECK: %[[P1:.+]] = math.exp2 %{{.+}} {tilec.softmax_exp2} : tensor<16x2xf32>
// CHECK-NOT: tile.online_softmax
// CHECK: return %{{.+}}, %[[P0]], %[[P1]], %{{.+}}
func.func @parts(%s0: tensor<16x8xf32>, %s1: tensor<16x2xf32>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x8xf32>, tensor<16x2xf32>, tensor<16xf32>) {
  %mn, %p0, %p1, %a = tile.online_softmax %s0, %s1, %m scale = 0.125 : tensor<16x8xf32>, tensor<16x2xf32>, tensor<16xf32>
  return %mn, %p0, %p1, %a : tensor<16xf32>, tensor<16x8xf32>, tensor<16x2xf32>, tensor<16xf32>
}

// -----

// Parts whose widths the narrowest does not divide (the verifier allows
// any widths): no fold; each part's row maximum on its own, then their
// maximum.
// CHECK-LABEL: func.func @parts_not_dividing
// CHECK-SAME: (%[[S0:.+]]: tensor<16x6xf32>, %[[S1:.+]]: tensor<16x4xf32>, %[[M:.+]]: tensor<16xf32>)
// CHECK-NOT: tile.reshape
// CHECK: %[[MAX0:.+]] = tile.reduce max %[[S0]] axis = 1
// CHECK: %[[MAX1:.+]] = tile.reduce max %[[S1]] axis = 1
// CHECK: arith.maximumf %[[MAX0]], %[[MAX1]]
func.func @parts_not_dividing(%s0: tensor<16x6xf32>, %s1: tensor<16x4xf32>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x6xf32>, tensor<16x4xf32>, tensor<16xf32>) {
  %mn, %p0, %p1, %a = tile.online_softmax %s0, %s1, %m scale = 0.125 : tensor<16x6xf32>, tensor<16x4xf32>, tensor<16xf32>
  return %mn, %p0, %p1, %a : tensor<16xf32>, tensor<16x6xf32>, tensor<16x4xf32>, tensor<16xf32>
}
