// tile.last_arrival lowers to one inline-PTX block over the threads that
// run it: in a warp role its named barrier (role + 1) and the role's
// threads, the thread index counted from the role's first thread (thread 0
// of the role takes the counter); outside roles barrier 0 and the kernel's
// nvvm.reqntid. The wait for bulk (TMA) stores is there only where the
// module's target has TMA. The count less one is the atom.inc's bound.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm | FileCheck %s

// CHECK-LABEL: llvm.func @in_a_role
// CHECK: nvvm.setmaxregister increase 232
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[REL:.+]] = llvm.sub %[[TID]], %{{.+}}
// CHECK: llvm.inline_asm has_side_effects "{{.*}}cp.async.bulk.wait_group 0;\0Afence.acq_rel.gpu;\0Abar.sync 2, 256;{{.*}}@%first atom.acq_rel.gpu.global.inc.u32 %old, [$1], $2;{{.*}}bar.red.or.pred %last, 2, 256, %last;\0Afence.acq_rel.gpu;{{.*}}", "=r,l,r,r" %{{.+}}, %{{.+}}, %[[REL]]
// CHECK: llvm.icmp "ne"
module attributes {tilec.target = {tma = true}} {
func.func @in_a_role(%counter: !tile.ptr<i32>, %n: i32, %id: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 384, 1, 1>} {
  tilegpu.warp_specialize
    role warps = 4 registers = 40 {
    }
    role warps = 8 registers = 232 {
      %last = tile.last_arrival %counter of %n : !tile.ptr<i32>
      scf.if %last {
        tilegpu.barrier_arrive %id, 256
      }
    }
  return
}
}

// -----

// CHECK-LABEL: llvm.func @whole_block
// CHECK: %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x
// CHECK-NOT: llvm.sub %[[TID]]
// CHECK: llvm.inline_asm has_side_effects "{\0A.reg .pred %first, %last;\0A.reg .b32 %old;\0Afence.acq_rel.gpu;\0Abar.sync 0, 128;{{.*}}bar.red.or.pred %last, 0, 128, %last;{{.*}}", "=r,l,r,r" %{{.+}}, %{{.+}}, %[[TID]]
func.func @whole_block(%counter: !tile.ptr<i32>, %n: i32, %id: i32) attributes {tilegpu.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
  %last = tile.last_arrival %counter of %n : !tile.ptr<i32>
  scf.if %last {
    tilegpu.barrier_arrive %id, 128
  }
  return
}
