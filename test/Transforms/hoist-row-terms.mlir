// RUN: tilec-opt %s --tile-hoist-row-terms --canonicalize | FileCheck %s

// ALiBi's bias c * float(key - row) with rows q0 + iota: the loop adds
// c * float(key - q0) once per column; c * float(q0 - row), made before the
// loop (the slope with it), leaves through the running maximum: -inf enters
// as it is, the maximum leaves `c * float(q0 - row) * t` higher (t = 0.5 *
// log2 e = 0.72134752).
// CHECK-LABEL: func.func @alibi
// CHECK-SAME: (%[[Q0:[^:]+]]: i32, %[[HEAD:[^:]+]]: f32, %[[S:[^:]+]]: tensor<16x8xf32>, %{{[^:]+}}: i32)
// CHECK-DAG: %[[T:.+]] = arith.constant dense<0.72134751> : tensor<16xf32>
// CHECK-DAG: %[[NINF:.+]] = arith.constant dense<0xFF800000> : tensor<16xf32>
// CHECK: %[[ROWS:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<16xi32>
// CHECK: %[[SLOPE:.+]] = math.exp2 %[[HEAD]] : f32
// CHECK: %[[TO_Q0:.+]] = arith.subi %{{.+}}, %[[ROWS]] : tensor<16xi32>
// CHECK: %[[C:.+]] = tile.splat %[[SLOPE]] : tensor<16xf32>
// CHECK: %[[F:.+]] = tile.cast %[[TO_Q0]] : tensor<16xi32> to tensor<16xf32>
// CHECK: %[[ROW:.+]] = arith.mulf %[[C]], %[[F]] fastmath<contract> : tensor<16xf32>
// CHECK: %[[OFFSET:.+]] = arith.mulf %[[ROW]], %[[T]] : tensor<16xf32>
// CHECK: %[[LOOP:.+]]:2 = scf.for {{.+}} iter_args(%[[M:.+]] = %[[NINF]], %{{.+}} = %{{.+}})
// CHECK-NOT: tensor<16x8xi32>
// CHECK: %[[FROM_Q0:.+]] = arith.subi %{{.+}}, %{{.+}} : tensor<8xi32>
// CHECK: %[[CF:.+]] = tile.cast %[[FROM_Q0]] : tensor<8xi32> to tensor<8xf32>
// CHECK: %[[COL:.+]] = arith.mulf %{{.+}}, %[[CF]] fastmath<contract> : tensor<8xf32>
// CHECK: %[[E:.+]] = tile.expand_dims %[[COL]] axis = 0
// CHECK: %[[SPREAD:.+]] = tile.broadcast %[[E]] : tensor<1x8xf32> -> tensor<16x8xf32>
// CHECK: %[[SUM:.+]] = arith.addf %[[S]], %[[SPREAD]] fastmath<contract> : tensor<16x8xf32>
// CHECK-NOT: tensor<16x8xi32>
// CHECK: %[[MASKED:.+]] = arith.select %{{.+}}, %[[SUM]], %{{.+}}
// CHECK: tile.online_softmax %[[MASKED]], %[[M]] scale = 5.000000e-01
// CHECK: %[[MAX:.+]] = arith.addf %[[LOOP]]#0, %[[OFFSET]] : tensor<16xf32>
// CHECK: return %[[MAX]], %[[LOOP]]#1
func.func @alibi(%q0: i32, %head: f32, %s: tensor<16x8xf32>, %n: i32) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %ninf2 = arith.constant dense<0xFF800000> : tensor<16x8xf32>
  %iota = tile.iota : tensor<16xi32>
  %q0v = tile.splat %q0 : tensor<16xi32>
  %rows = arith.addi %q0v, %iota : tensor<16xi32>
  %res:2 = scf.for %j = %c0 to %n step %c8 iter_args(%m = %ninf, %l = %zero) -> (tensor<16xf32>, tensor<16xf32>) : i32 {
    %jv = tile.splat %j : tensor<8xi32>
    %iota8 = tile.iota : tensor<8xi32>
    %keys = arith.addi %jv, %iota8 : tensor<8xi32>
    %slope = math.exp2 %head : f32
    %k1 = tile.expand_dims %keys axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
    %k2 = tile.broadcast %k1 : tensor<1x8xi32> -> tensor<16x8xi32>
    %r1 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
    %r2 = tile.broadcast %r1 : tensor<16x1xi32> -> tensor<16x8xi32>
    %d = arith.subi %k2, %r2 : tensor<16x8xi32>
    %df = tile.cast %d : tensor<16x8xi32> to tensor<16x8xf32>
    %c = tile.splat %slope : tensor<16x8xf32>
    %bias = arith.mulf %c, %df fastmath<contract> : tensor<16x8xf32>
    %y = arith.addf %s, %bias fastmath<contract> : tensor<16x8xf32>
    %nv = tile.splat %n : tensor<8xi32>
    %in = arith.cmpi slt, %keys, %nv : tensor<8xi32>
    %in1 = tile.expand_dims %in axis = 0 : tensor<8xi1> -> tensor<1x8xi1>
    %in2 = tile.broadcast %in1 : tensor<1x8xi1> -> tensor<16x8xi1>
    %x = arith.select %in2, %y, %ninf2 : tensor<16x8xi1>, tensor<16x8xf32>
    %m_new, %p, %alpha = tile.online_softmax %x, %m scale = 0.5 : tensor<16x8xf32>, tensor<16xf32>
    %sum = tile.reduce sum %p axis = 1 : tensor<16x8xf32> -> tensor<16xf32>
    %l2 = arith.mulf %l, %alpha : tensor<16xf32>
    %l3 = arith.addf %l2, %sum : tensor<16xf32>
    scf.yield %m_new, %l3 : tensor<16xf32>, tensor<16xf32>
  }
  return %res#0, %res#1 : tensor<16xf32>, tensor<16xf32>
}

// A term that is one value per row leaves whole. Two loops in a row (the
// causal kernel's masked and unmasked steps) hand the shifted maximum on:
// one shift, after the second; a maximum that enters computed (%m0) is
// shifted down first.
// CHECK-LABEL: func.func @two_loops
// CHECK-SAME: (%[[S:[^:]+]]: tensor<16x8xf32>, %[[R:[^:]+]]: tensor<16xf32>, %[[M0:[^:]+]]: tensor<16xf32>, %{{[^:]+}}: i32)
// CHECK: %[[OFF:.+]] = arith.mulf %[[R]], %{{.+}} : tensor<16xf32>
// CHECK: %[[IN:.+]] = arith.subf %[[M0]], %[[OFF]] : tensor<16xf32>
// CHECK: %[[A:.+]] = scf.for {{.+}} iter_args(%[[MA:.+]] = %[[IN]])
// CHECK: tile.online_softmax %[[S]], %[[MA]] scale = 1.000000e+00
// CHECK: %[[B:.+]] = scf.for {{.+}} iter_args(%[[MB:.+]] = %[[A]])
// CHECK: tile.online_softmax %[[S]], %[[MB]] scale = 1.000000e+00
// CHECK: %[[OUT:.+]] = arith.addf %[[B]], %{{.+}} : tensor<16xf32>
// CHECK-NOT: arith.addf %[[A]]
// CHECK: return %[[OUT]]
func.func @two_loops(%s: tensor<16x8xf32>, %r: tensor<16xf32>, %m0: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %r1 = tile.expand_dims %r axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %r2 = tile.broadcast %r1 : tensor<16x1xf32> -> tensor<16x8xf32>
  %x = arith.addf %s, %r2 : tensor<16x8xf32>
  %a = scf.for %j = %c0 to %n step %c8 iter_args(%m = %m0) -> (tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %x, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    scf.yield %m_new : tensor<16xf32>
  }
  %b = scf.for %j = %c0 to %n step %c8 iter_args(%m = %a) -> (tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %x, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    scf.yield %m_new : tensor<16xf32>
  }
  return %b : tensor<16xf32>
}

// Left as they are: a bias whose rows are not `q0 + iota`, a mask that
// keeps something other than -inf, a maximum (old or new) the loop also
// reads.
// (No offset: its log2 e never appears.)
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: 1.44269502
// CHECK: arith.subi {{.*}} : tensor<16x8xi32>
// CHECK: tile.online_softmax
// CHECK: return
func.func @unchanged(%s: tensor<16x8xf32>, %rows: tensor<16xi32>, %keys: tensor<8xi32>, %c: f32, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %k1 = tile.expand_dims %keys axis = 0 : tensor<8xi32> -> tensor<1x8xi32>
  %k2 = tile.broadcast %k1 : tensor<1x8xi32> -> tensor<16x8xi32>
  %r1 = tile.expand_dims %rows axis = 1 : tensor<16xi32> -> tensor<16x1xi32>
  %r2 = tile.broadcast %r1 : tensor<16x1xi32> -> tensor<16x8xi32>
  %d = arith.subi %k2, %r2 : tensor<16x8xi32>
  %df = tile.cast %d : tensor<16x8xi32> to tensor<16x8xf32>
  %cv = tile.splat %c : tensor<16x8xf32>
  %bias = arith.mulf %cv, %df : tensor<16x8xf32>
  %y = arith.addf %s, %bias : tensor<16x8xf32>
  %a = scf.for %j = %c0 to %n step %c8 iter_args(%m = %ninf) -> (tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %y, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    scf.yield %m_new : tensor<16xf32>
  }
  return %a : tensor<16xf32>
}

// CHECK-LABEL: func.func @not_minus_inf
// CHECK-NOT: 1.44269502
// CHECK: return
func.func @not_minus_inf(%s: tensor<16x8xf32>, %r: tensor<16xf32>, %keep: tensor<16x8xi1>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %low = arith.constant dense<-1.0e4> : tensor<16x8xf32>
  %r1 = tile.expand_dims %r axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %r2 = tile.broadcast %r1 : tensor<16x1xf32> -> tensor<16x8xf32>
  %y = arith.addf %s, %r2 : tensor<16x8xf32>
  %x = arith.select %keep, %y, %low : tensor<16x8xi1>, tensor<16x8xf32>
  %a = scf.for %j = %c0 to %n step %c8 iter_args(%m = %ninf) -> (tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %x, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    scf.yield %m_new : tensor<16xf32>
  }
  return %a : tensor<16xf32>
}

// CHECK-LABEL: func.func @maximum_read
// CHECK-NOT: 1.44269502
// CHECK: return
func.func @maximum_read(%s: tensor<16x8xf32>, %r: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %r1 = tile.expand_dims %r axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %r2 = tile.broadcast %r1 : tensor<16x1xf32> -> tensor<16x8xf32>
  %y = arith.addf %s, %r2 : tensor<16x8xf32>
  %a = scf.for %j = %c0 to %n step %c8 iter_args(%m = %ninf) -> (tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %y, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    %twice = arith.addf %m_new, %m : tensor<16xf32>
    scf.yield %twice : tensor<16xf32>
  }
  return %a : tensor<16xf32>
}

// CHECK-LABEL: func.func @new_maximum_read
// CHECK-NOT: 1.44269502
// CHECK: return
func.func @new_maximum_read(%s: tensor<16x8xf32>, %r: tensor<16xf32>, %n: i32) -> (tensor<16xf32>, tensor<16xf32>) {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %ninf = arith.constant dense<0xFF800000> : tensor<16xf32>
  %r1 = tile.expand_dims %r axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %r2 = tile.broadcast %r1 : tensor<16x1xf32> -> tensor<16x8xf32>
  %y = arith.addf %s, %r2 : tensor<16x8xf32>
  %a:2 = scf.for %j = %c0 to %n step %c8 iter_args(%m = %ninf, %sum = %ninf) -> (tensor<16xf32>, tensor<16xf32>) : i32 {
    %m_new, %p, %alpha = tile.online_softmax %y, %m scale = 1.0 : tensor<16x8xf32>, tensor<16xf32>
    %next = arith.addf %sum, %m_new : tensor<16xf32>
    scf.yield %m_new, %next : tensor<16xf32>, tensor<16xf32>
  }
  return %a#0, %a#1 : tensor<16xf32>, tensor<16xf32>
}

// Scores in parts (a key block of 8 + 4 keys) are left as they are for
// now, though part 0 has a row term: shifting it alone would change the
// softmax (the maximum is over both parts).
// CHECK-LABEL: func.func @parts
// CHECK-SAME: (%[[S:[^:]+]]: tensor<16x8xf32>, %[[S4:[^:]+]]: tensor<16x4xf32>, %[[R:[^:]+]]: tensor<16xf32>, %[[M0:[^:]+]]: tensor<16xf32>, %{{[^:]+}}: i32)
// CHECK: %[[X:.+]] = arith.addf %[[S]], %{{.+}} : tensor<16x8xf32>
// CHECK: scf.for {{.+}} iter_args(%[[M:.+]] = %[[M0]])
// CHECK: tile.online_softmax %[[X]], %[[S4]], %[[M]] scale = 1.000000e+00
// CHECK-NOT: arith.addf
// CHECK: return
func.func @parts(%s: tensor<16x8xf32>, %s4: tensor<16x4xf32>, %r: tensor<16xf32>, %m0: tensor<16xf32>, %n: i32) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i32
  %c8 = arith.constant 8 : i32
  %r1 = tile.expand_dims %r axis = 1 : tensor<16xf32> -> tensor<16x1xf32>
  %r2 = tile.broadcast %r1 : tensor<16x1xf32> -> tensor<16x8xf32>
  %x = arith.addf %s, %r2 : tensor<16x8xf32>
  %a = scf.for %j = %c0 to %n step %c8 iter_args(%m = %m0) -> (tensor<16xf32>) : i32 {
    %m_new, %p:2, %alpha = tile.online_softmax %x, %s4, %m scale = 1.0 : tensor<16x8xf32>, tensor<16x4xf32>, tensor<16xf32>
    scf.yield %m_new : tensor<16xf32>
  }
  return %a : tensor<16xf32>
}
