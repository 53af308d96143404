// Two consecutive loops that stream the same B blocks over consecutive K
// ranges share one ring: the second takes it over (its only wait_group 0 is
// the re-prime under a branch, for when it does not start where the ring's
// blocks do), instead of draining and priming again. With three slots and one
// stream the in-loop waits leave one group in flight.
// RUN: sed 's/DESC/%%1/' %S/Inputs/two-k-loops.mlir > %t.same.mlir
// RUN: tilec %t.same.mlir --assume-aligned --pipeline-stages=3 --emit=llvm | FileCheck %s --check-prefix=SAME
// SAME: nvvm.cp.async.wait.group 1
// SAME: nvvm.cp.async.wait.group 0
// SAME-NEXT: nvvm.barrier0
// SAME: nvvm.cp.async.wait.group 1
// SAME-NOT: nvvm.cp.async.wait.group 0

// A second loop over another descriptor primes its own ring.
// RUN: sed 's/DESC/%%b2/' %S/Inputs/two-k-loops.mlir > %t.other.mlir
// RUN: tilec %t.other.mlir --assume-aligned --pipeline-stages=3 --emit=llvm | FileCheck %s --check-prefix=OTHER
// OTHER-NOT: nvvm.cp.async.wait.group 0
// OTHER-COUNT-2: nvvm.cp.async.wait.group 1
