// tile-persistent-grid: the kernel takes the logical grid (gx, gy, gz) as
// three trailing i32 arguments and its body runs in a loop over the logical
// programs, x fastest, from program_id(0) by num_programs(0); the grid
// queries of the body read the loop's decomposition and the arguments.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics | FileCheck %s
// A kernel that already loops over its grid (IR printed after the pass and
// compiled again) is left as it is: the pass twice gives what it gives once.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir -split-input-file --tile-persistent-grid | FileCheck %s --check-prefix=TWICE
// TWICE-LABEL: func.func @rows
// TWICE-SAME: %arg4: i32) attributes {tilec.persistent}
// TWICE-COUNT-1: scf.for
// TWICE-NOT: scf.for
// TWICE-LABEL: func.func @longest_first

// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK-SAME: attributes {tilec.persistent}
// CHECK: %[[FIRST:.*]] = tile.program_id 0
// CHECK: %[[STEP:.*]] = tile.num_programs 0
// CHECK: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[TOTAL:.*]] = arith.muli %[[XY]], %[[GZ]]
// CHECK: scf.for %[[T:.*]] = %[[FIRST]] to %[[TOTAL]] step %[[STEP]]
// CHECK: %[[REST:.*]] = arith.divsi %[[T]], %[[GX]]
// CHECK: %[[PX:.*]] = arith.remsi %[[T]], %[[GX]]
// CHECK: %[[PY:.*]] = arith.remsi %[[REST]], %[[GY]]
// CHECK: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GY]]
// CHECK-NOT: tile.program_id
// CHECK-NOT: tile.num_programs
// CHECK: arith.muli %[[PY]], %[[GX]]
// CHECK: arith.addi %{{.*}}, %[[PX]]
// CHECK: arith.addi %{{.*}}, %[[PZ]]
// CHECK: tile.store
// CHECK: }
// CHECK-NEXT: return
func.func @rows(%x: !tile.ptr<f32>, %n: i32) {
  %px = tile.program_id 0
  %py = tile.program_id 1
  %pz = tile.program_id 2
  %nx = tile.num_programs 0
  %row = arith.muli %py, %nx : i32
  %i = arith.addi %row, %px : i32
  %j = arith.addi %i, %pz : i32
  %p = tile.addptr %x, %j : !tile.ptr<f32>, i32
  %ps = tile.splat %p : tensor<1x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<1xf32>
  tile.store %ps, %one : tensor<1x!tile.ptr<f32>>
  return
}

// -----

// expected-error @+1 {{cannot run as a persistent grid: it returns values}}
func.func @returns(%n: i32) -> i32 {
  return %n : i32
}

// -----

// A kernel whose programs along y come longest first: y is the slowest,
// x then z the fastest, and every other full round of num_programs(0)
// tiles runs backwards (u = round end - 1 - lane).
// CHECK-LABEL: func.func @longest_first
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK-SAME: tilec.longest_first_axis = 1 : i32, tilec.persistent
// CHECK: %[[STEP:.*]] = tile.num_programs 0
// CHECK: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[TOTAL:.*]] = arith.muli %[[XY]], %[[GZ]]
// CHECK: %[[XZ:.*]] = arith.muli %[[GX]], %[[GZ]]
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[TOTAL]] step %[[STEP]]
// CHECK: %[[ROUND:.*]] = arith.divsi %[[T]], %[[STEP]]
// CHECK: %[[START:.*]] = arith.muli %[[ROUND]], %[[STEP]]
// CHECK: %[[LANE:.*]] = arith.subi %[[T]], %[[START]]
// CHECK: %[[END:.*]] = arith.addi %[[START]], %[[STEP]]
// CHECK: %[[ODD:.*]] = arith.andi %[[ROUND]], %c1
// CHECK: %[[ISODD:.*]] = arith.cmpi ne, %[[ODD]], %c0
// CHECK: %[[FULL:.*]] = arith.cmpi sle, %[[END]], %[[TOTAL]]
// CHECK: %[[LAST:.*]] = arith.subi %[[END]], %c1
// CHECK: %[[MIRROR:.*]] = arith.subi %[[LAST]], %[[LANE]]
// CHECK: %[[BACK:.*]] = arith.andi %[[ISODD]], %[[FULL]]
// CHECK: %[[U:.*]] = arith.select %[[BACK]], %[[MIRROR]], %[[T]]
// CHECK: %[[REST:.*]] = arith.remsi %[[U]], %[[XZ]]
// CHECK: %[[PY:.*]] = arith.divsi %[[U]], %[[XZ]]
// CHECK: %[[PX:.*]] = arith.remsi %[[REST]], %[[GX]]
// CHECK: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GX]]
// CHECK: arith.muli %[[PY]], %[[GX]]
// CHECK: arith.addi %{{.*}}, %[[PX]]
// CHECK: arith.addi %{{.*}}, %[[PZ]]
func.func @longest_first(%x: !tile.ptr<f32>) attributes {tilec.longest_first_axis = 1 : i32} {
  %px = tile.program_id 0
  %py = tile.program_id 1
  %pz = tile.program_id 2
  %nx = tile.num_programs 0
  %row = arith.muli %py, %nx : i32
  %i = arith.addi %row, %px : i32
  %j = arith.addi %i, %pz : i32
  %p = tile.addptr %x, %j : !tile.ptr<f32>, i32
  %ps = tile.splat %p : tensor<1x!tile.ptr<f32>>
  %one = arith.constant dense<1.0> : tensor<1xf32>
  tile.store %ps, %one : tensor<1x!tile.ptr<f32>>
  return
}

// -----

// expected-error @+1 {{cannot run as a persistent grid: tilec.longest_first_axis must be a grid axis (0, 1 or 2)}}
func.func @bad_axis() attributes {tilec.longest_first_axis = 3 : i32} {
  return
}
