// tile-persistent-grid: the kernel takes the logical grid (gx, gy, gz) as
// three trailing i32 arguments and its body runs in a loop over the logical
// programs, x fastest, from program_id(0) by num_programs(0); the grid
// queries of the body read the loop's decomposition and the arguments.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics | FileCheck %s
// A kernel that already loops over its grid (IR printed after the pass and
// compiled again) is left as it is: the pass twice gives what it gives once.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid -verify-diagnostics -o %t.once.mlir
// RUN: tilec-opt %t.once.mlir -split-input-file --tile-persistent-grid | FileCheck %s --check-prefix=TWICE
// One section of all heads (rounds-per-section=0; the default is two
// rounds of tiles a section):
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid=rounds-per-section=0 -verify-diagnostics | FileCheck %s --check-prefix=ONE
// With tile-counter (the tiles will be claimed from a counter), sections
// as before but no backward rounds: t itself indexes the section's tiles;
// the kernel is marked tilec.tile_counter.
// RUN: tilec-opt %s -split-input-file --tile-persistent-grid=tile-counter=true -verify-diagnostics | FileCheck %s --check-prefix=COUNTER
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
// other full round of num_programs(0) tiles of a section (counted from its
// start) runs backwards (u = round end - 1 - lane). A section is min(gx·gz, max(1, ceil(2 · step / gy))) wide
// (two rounds of tiles, the default rounds-per-section=2), made before the loop; the
// last one may be narrower (rounds-per-section=0: one section of all).
// CHECK-LABEL: func.func @longest_first
// CHECK-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// CHECK-SAME: tilec.longest_first_axis = 1 : i32, tilec.persistent
// CHECK: %[[STEP:.*]] = tile.num_programs 0
// CHECK: %[[XY:.*]] = arith.muli %[[GX]], %[[GY]]
// CHECK: %[[TOTAL:.*]] = arith.muli %[[XY]], %[[GZ]]
// CHECK: %[[XZ:.*]] = arith.muli %[[GX]], %[[GZ]]
// CHECK: %[[TWO:.*]] = arith.muli %[[STEP]], %c2
// CHECK: %[[GY1:.*]] = arith.subi %[[GY]], %c1
// CHECK: %[[UP:.*]] = arith.addi %[[TWO]], %[[GY1]]
// CHECK: %[[HEADS:.*]] = arith.divsi %[[UP]], %[[GY]]
// CHECK: %[[ATLEAST1:.*]] = arith.maxsi %{{.*}}, %[[HEADS]]
// CHECK: %[[WIDTH:.*]] = arith.minsi %[[XZ]], %[[ATLEAST1]]
// CHECK: %[[SECTILES:.*]] = arith.muli %[[WIDTH]], %[[GY]]
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[TOTAL]] step %[[STEP]]
// CHECK: %[[SECTION:.*]] = arith.divsi %[[T]], %[[SECTILES]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[SECTION]], %[[WIDTH]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[XZ]], %[[FIRST]]
// CHECK: %[[W:.*]] = arith.minsi %[[WIDTH]], %[[LEFT]]
// CHECK: %[[SKIPPED:.*]] = arith.muli %[[SECTION]], %[[SECTILES]]
// CHECK: %[[L:.*]] = arith.subi %[[T]], %[[SKIPPED]]
// CHECK: %[[COUNT:.*]] = arith.muli %[[W]], %[[GY]]
// CHECK: %[[ROUND:.*]] = arith.divsi %[[L]], %[[STEP]]
// CHECK: %[[START:.*]] = arith.muli %[[ROUND]], %[[STEP]]
// CHECK: %[[LANE:.*]] = arith.subi %[[L]], %[[START]]
// CHECK: %[[END:.*]] = arith.addi %[[START]], %[[STEP]]
// CHECK: %[[ODD:.*]] = arith.andi %[[ROUND]], %c1
// CHECK: %[[ISODD:.*]] = arith.cmpi ne, %[[ODD]], %c0
// CHECK: %[[FULL:.*]] = arith.cmpi sle, %[[END]], %[[COUNT]]
// CHECK: %[[LAST:.*]] = arith.subi %[[END]], %c1
// CHECK: %[[MIRROR:.*]] = arith.subi %[[LAST]], %[[LANE]]
// CHECK: %[[BACK:.*]] = arith.andi %[[ISODD]], %[[FULL]]
// CHECK: %[[WITHIN:.*]] = arith.select %[[BACK]], %[[MIRROR]], %[[L]]
// CHECK: %[[PY:.*]] = arith.divsi %[[WITHIN]], %[[W]]
// CHECK: %[[R:.*]] = arith.remsi %[[WITHIN]], %[[W]]
// CHECK: %[[REST:.*]] = arith.addi %[[FIRST]], %[[R]]
// CHECK: %[[PX:.*]] = arith.remsi %[[REST]], %[[GX]]
// CHECK: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GX]]
// CHECK: arith.muli %[[PY]], %[[GX]]
// CHECK: arith.addi %{{.*}}, %[[PX]]
// CHECK: arith.addi %{{.*}}, %[[PZ]]
// COUNTER-LABEL: func.func @rows
// COUNTER-SAME: attributes {tilec.persistent, tilec.tile_counter}
// COUNTER-LABEL: func.func @longest_first
// COUNTER-SAME: tilec.longest_first_axis = 1 : i32, tilec.persistent, tilec.tile_counter
// COUNTER: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}}
// COUNTER: %[[SECTION:.*]] = arith.divsi %[[T]], %[[SECTILES:.*]] : i32
// COUNTER: %[[FIRST:.*]] = arith.muli %[[SECTION]], %[[WIDTH:.*]] : i32
// COUNTER: %[[W:.*]] = arith.minsi %[[WIDTH]], %{{.*}}
// COUNTER: %[[SKIPPED:.*]] = arith.muli %[[SECTION]], %[[SECTILES]]
// COUNTER-NEXT: %[[L:.*]] = arith.subi %[[T]], %[[SKIPPED]]
// COUNTER-NOT: arith.select
// COUNTER: %[[PY:.*]] = arith.divsi %[[L]], %[[W]]
// COUNTER-NEXT: %[[R:.*]] = arith.remsi %[[L]], %[[W]]
// ONE-LABEL: func.func @longest_first
// ONE-SAME: (%[[X:.*]]: !tile.ptr<f32>, %[[GX:.*]]: i32, %[[GY:.*]]: i32, %[[GZ:.*]]: i32)
// ONE: %[[XZ:.*]] = arith.muli %[[GX]], %[[GZ]]
// ONE-NOT: arith.minsi
// ONE: scf.for
// ONE: %[[U:.*]] = arith.select
// ONE-NEXT: %[[REST:.*]] = arith.remsi %[[U]], %[[XZ]]
// ONE-NEXT: %[[PY:.*]] = arith.divsi %[[U]], %[[XZ]]
// ONE-NEXT: %[[PX:.*]] = arith.remsi %[[REST]], %[[GX]]
// ONE-NEXT: %[[PZ:.*]] = arith.divsi %[[REST]], %[[GX]]
// ONE: arith.muli %[[PY]], %[[GX]]
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
