// The fused backward with dq_convert=last_program: each program counts its
// arrival on its key/value head's counter (tile.last_arrival) once its dK,
// dV and dQ shares are written, and the last one converts the head's f32
// dq_acc into dq and zeroes it (no convert launch after it). Checked on the
// CPU (dq against the double-precision gradients, dq_acc and the counters
// back at zero; a GQA group of 3 converts three query heads), and lowered:
// on sm_90a by default inside the consumer warp role (its named barrier 2
// of 256 threads; the conversion loop, under the branch, is not streamed,
// so the kernel stays warp-specialized), after waiting for its TMA stores
// and reductions to complete; by tile-to-llvm over the whole block
// (barrier 0; on sm_80 no bulk stores to wait for). The counter
// tensor comes after dq, one i32 a key/value head: the launch checks its
// size against k's first dimension ("sizes_of").
// RUN: tilec --kernel=flash_attention_bwd_fused --set dq_convert=last_program --run=cpu --size batch=2 --size heads=2 --size seq_q=300 --size seq_k=133 | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_fused_gqa --set group=3 --set dq_convert=last_program --run=cpu --size heads=6 --size seq_q=77 --size seq_k=130 | FileCheck %s --check-prefix=CPU
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --set dq_convert=last_program --emit=ptx -o %t.ptx && FileCheck %s --check-prefix=ROLE < %t.ptx && FileCheck %s --check-prefix=META < %t.json
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --lowering=tile-to-llvm --set dq_convert=last_program --emit=ptx -o %t.tl.ptx && FileCheck %s --check-prefix=BLOCK < %t.tl.ptx
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_80 --set dq_convert=last_program --emit=ptx -o %t.80.ptx && FileCheck %s --check-prefix=SM80 < %t.80.ptx
// The default keeps the convert launch: no counter.
// RUN: tilec --kernel=flash_attention_bwd_fused --arch=sm_90a --emit=ptx -o %t.def.ptx && FileCheck %s --check-prefix=DEFAULT < %t.def.ptx

// CPU: dq_acc {{.*}}: ok
// CPU: dq {{.*}}: ok
// CPU: dq_arrivals {{.*}}: ok

// ROLE: setmaxnreg
// ROLE: cp.async.bulk.wait_group 0;
// ROLE-NEXT: fence.acq_rel.gpu;
// ROLE-NEXT: bar.sync 2, 256;
// ROLE: @%first atom.acq_rel.gpu.global.inc.u32 %old, [%{{.+}}], %{{.+}};
// ROLE: bar.red.or.pred %last, 2, 256, %last;
// ROLE-NEXT: fence.acq_rel.gpu;

// META: "name":"dq_acc"
// META: "name":"dq",
// META: {"name":"dq_arrivals","kind":"tensor","dtype":"i32","rank":1,"aligned":false,"sizes_of":[{"param":"k","axis":0}]}

// BLOCK: cp.async.bulk.wait_group 0;
// BLOCK: bar.sync 0, 256;
// BLOCK: bar.red.or.pred %last, 0, 256, %last;

// SM80-NOT: cp.async.bulk
// SM80: bar.sync 0, 128;
// SM80: atom.acq_rel.gpu.global.inc.u32
// SM80: bar.red.or.pred %last, 0, 128, %last;

// DEFAULT-NOT: atom.acq_rel.gpu.global.inc
