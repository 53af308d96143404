// Two consecutive loops that stream the same B blocks over consecutive K
// ranges share one ring: the second takes it over (its wait_group 0 is the
// re-prime under a branch, for when it does not start where the ring's
// blocks do), instead of draining and priming again; the ring drains once,
// after the last of them. With three slots and one stream the in-loop waits
// leave one group in flight.
// RUN: sed 's/DESC/%%1/' %S/Inputs/two-k-loops.mlir > %t.same.mlir
// RUN: tilec %t.same.mlir --assume-aligned --pipeline-stages=3 --emit=llvm | FileCheck %s --check-prefix=SAME
// SAME: nvvm.cp.async.wait.group 1
// SAME: nvvm.cp.async.wait.group 0
// SAME-NEXT: nvvm.barrier0
// SAME: nvvm.cp.async.wait.group 1
// SAME-NOT: nvvm.cp.async.wait.group
// SAME: nvvm.cp.async.wait.group 0
// SAME-NOT: nvvm.cp.async.wait.group

// A second loop over another descriptor primes its own ring in the same
// slots, after the first loop's ring has drained: the copies it issued ahead
// past its end (empty, but each writes its slot) would race with the new
// ones (compute-sanitizer racecheck found this write-after-write).
// RUN: sed 's/DESC/%%b2/' %S/Inputs/two-k-loops.mlir > %t.other.mlir
// RUN: tilec %t.other.mlir --assume-aligned --pipeline-stages=3 --emit=llvm | FileCheck %s --check-prefix=OTHER
// OTHER: nvvm.cp.async.wait.group 1
// OTHER: nvvm.cp.async.wait.group 0
// OTHER-NOT: nvvm.cp.async.commit.group
// OTHER: nvvm.barrier0
// OTHER: nvvm.cp.async.commit.group
// OTHER: nvvm.cp.async.wait.group 1
// OTHER: nvvm.cp.async.wait.group 0
