// RUN: tilec-opt %s --tile-decompose-online-softmax | FileCheck %s

// The step becomes its definition: scale by c·log2(e), row max, exp2 of the
// shifted scores and of the max difference, with -inf rows made safe.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[S:.+]]: tensor<16x8xf32>, %[[M:.+]]: tensor<16xf32>)
// CHECK-DAG: %[[T:.+]] = arith.constant dense<0.180336{{[0-9]*}}> : tensor<16x8xf32>
// CHECK: %[[SCALED:.+]] = arith.mulf %[[S]], %[[T]]
// CHECK: %[[ROWMAX:.+]] = tile.reduce max %[[SCALED]] axis = 1
// CHECK: %[[MNEW:.+]] = arith.maximumf %[[M]], %[[ROWMAX]]
// CHECK: %[[EMPTY:.+]] = arith.cmpf oeq, %[[MNEW]]
// CHECK: %[[SAFE:.+]] = arith.select %[[EMPTY]], %{{.+}}, %[[MNEW]]
// CHECK: tile.expand_dims %[[SAFE]] axis = 1
// CHECK: %[[P:.+]] = math.exp2
// CHECK: %[[RESCALE:.+]] = math.exp2
// CHECK: %[[ALPHA:.+]] = arith.select %[[EMPTY]], %{{.+}}, %[[RESCALE]]
// CHECK-NOT: tile.online_softmax
// CHECK: return %[[MNEW]], %[[P]], %[[ALPHA]]
func.func @step(%s: tensor<16x8xf32>, %m: tensor<16xf32>) -> (tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>) {
  %mn, %p, %a = tile.online_softmax %s, %m scale = 0.125 : tensor<16x8xf32>, tensor<16xf32>
  return %mn, %p, %a : tensor<16xf32>, tensor<16x8xf32>, tensor<16xf32>
}
