// tile-persistent-grid: the kernel takes the logical grid (gx, gy, gz) as
// three trailing i32 arguments and its body runs in a loop over the logical
// programs, x fastest, from program_id(0) by num_programs(0); the grid
// queries of the body read the loop's decomposition and the arguments.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics | FileCheck %s
// A kernel that already loops over its grid (IR printed after the pass and
// compiled again) is left as it is: the pass twice gives what it gives once.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir -split-input-file --tile-persistent-grid | FileCheck %s --check-prefix=TWICE
// Heads in sections of two rounds of tiles (rounds-per-section=2; the
// default, 0, is one section of all):
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid=rounds-per-section=2 -verify-diagnostics | FileCheck %s --check-prefix=SECTIONS
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

// A kernel whose programs along y come longest first: y is the slowest
// inside sections of the (x, z) indices, x then z the fastest, and every
// other full round of num_programs(0) tiles runs backwards (u = round end
// - 1 - lane). A section is min(gx·gz, max(1, ceil(2 · step / gy))) wide
// (two rounds of tiles, rounds-per-section=2), made before the loop; the
// last one may be narrower. By default one section holds all.
// SECTIONS-LABEL: func.func @longest_first
// SECTIONS-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// SECTIONS-SAME: tilec.longest_first_axis = 1 : i32, tilec.persistent
// SECTIONS: %[[STEP:.*]] = tile.num_programs 0
// SECTIONS: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]]
// SECTIONS: %[[TOTAL:.*]] = arith.muli %[[XY]], %[[GZ]]
// SECTIONS: %[[XZ:.*]] = arith.muli %[[GX]], %[[GZ]]
// SECTIONS: %[[TWO:.*]] = arith.muli %[[STEP]], %c2
// SECTIONS: %[[GY1:.*]] = arith.subi %[[GY]], %c1
// SECTIONS: %[[UP:.*]] = arith.addi %[[TWO]], %[[GY1]]
// SECTIONS: %[[HEADS:.*]] = arith.divsi %[[UP]], %[[GY]]
// SECTIONS: %[[ATLEAST1:.*]] = arith.maxsi %{{.*}}, %[[HEADS]]
// SECTIONS: %[[WIDTH:.*]] = arith.minsi %[[XZ]], %[[ATLEAST1]]
// SECTIONS: %[[SECTILES:.*]] = arith.muli %[[WIDTH]], %[[GY]]
// SECTIONS: scf.for %[[T:.*]] = %{{.*}} to %[[TOTAL]] step %[[STEP]]
// SECTIONS: %[[ROUND:.*]] = arith.divsi %[[T]], %[[STEP]]
// SECTIONS: %[[START:.*]] = arith.muli %[[ROUND]], %[[STEP]]
// SECTIONS: %[[LANE:.*]] = arith.subi %[[T]], %[[START]]
// SECTIONS: %[[END:.*]] = arith.addi %[[START]], %[[STEP]]
// SECTIONS: %[[ODD:.*]] = arith.andi %[[ROUND]], %c1
// SECTIONS: %[[ISODD:.*]] = arith.cmpi ne, %[[ODD]], %c0
// SECTIONS: %[[FULL:.*]] = arith.cmpi sle, %[[END]], %[[TOTAL]]
// SECTIONS: %[[LAST:.*]] = arith.subi %[[END]], %c1
// SECTIONS: %[[MIRROR:.*]] = arith.subi %[[LAST]], %[[LANE]]
// SECTIONS: %[[BACK:.*]] = arith.andi %[[ISODD]], %[[FULL]]
// SECTIONS: %[[U:.*]] = arith.select %[[BACK]], %[[MIRROR]], %[[T]]
// SECTIONS: %[[SECTION:.*]] = arith.divsi %[[U]], %[[SECTILES]]
// SECTIONS: %[[FIRST:.*]] = arith.muli %[[SECTION]], %[[WIDTH]]
// SECTIONS: %[[LEFT:.*]] = arith.subi %[[XZ]], %[[FIRST]]
// SECTIONS: %[[W:.*]] = arith.minsi %[[WIDTH]], %[[LEFT]]
// SECTIONS: %[[SKIPPED:.*]] = arith.muli %[[SECTION]], %[[SECTILES]]
// SECTIONS: %[[WITHIN:.*]] = arith.subi %[[U]], %[[SKIPPED]]
// SECTIONS: %[[PY:.*]] = arith.divsi %[[WITHIN]], %[[W]]
// SECTIONS: %[[R:.*]] = arith.remsi %[[WITHIN]], %[[W]]
// SECTIONS: %[[REST:.*]] = arith.addi %[[FIRST]], %[[R]]
// SECTIONS: %[[PX:.*]] = arith.remsi %[[REST]], %[[GX]]
// SECTIONS: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GX]]
// SECTIONS: arith.muli %[[PY]], %[[GX]]
// SECTIONS: arith.addi %{{.*}}, %[[PX]]
// SECTIONS: arith.addi %{{.*}}, %[[PZ]]
// CHECK-LABEL: func.func @longest_first
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK: %[[XZ:.*]] = arith.muli %[[GX]], %[[GZ]]
// CHECK-NOT: arith.minsi
// CHECK: scf.for
// CHECK: %[[U:.*]] = arith.select
// CHECK-NEXT: %[[REST:.*]] = arith.remsi %[[U]], %[[XZ]]
// CHECK-NEXT: %[[PY:.*]] = arith.divsi %[[U]], %[[XZ]]
// CHECK-NEXT: %[[PX:.*]] = arith.remsi %[[REST]], %[[GX]]
// CHECK-NEXT: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GX]]
// CHECK: arith.muli %[[PY]], %[[GX]]
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
