// query_ranges=bisect: the dK/dV and fused backward kernels find the query
// blocks that see their key block (and the run that needs no mask) by
// bisection where the variant's key range is monotone, instead of a scan.
// Checked against the double-precision reference on the CPU interpreter:
// ragged sizes, rows without keys, N_q > N_k and N_q < N_k, GQA, packed.
// RUN: tilec --kernel=flash_attention_bwd_dkdv_causal --set query_ranges=bisect --run=cpu --size seq_q=300 --size seq_k=333 | FileCheck %s
// RUN: tilec --kernel=flash_attention_bwd_fused_causal --set query_ranges=bisect --run=cpu --size seq_q=130 --size seq_k=45 | FileCheck %s
// RUN: tilec --kernel=flash_attention_bwd_fused_sliding_window --set query_ranges=bisect --run=cpu --size seq_q=150 --size seq_k=401 | FileCheck %s
// RUN: tilec --kernel=flash_attention_bwd_dkdv_prefix_lm --set query_ranges=bisect --set head_dim=128 --run=cpu --size seq_q=200 --size seq_k=170 | FileCheck %s
// RUN: tilec --kernel=flash_attention_bwd_dkdv_gqa --set query_ranges=bisect --set group=3 --run=cpu --size heads=6 --size seq_q=77 --size seq_k=130 | FileCheck %s
// RUN: tilec --kernel=flash_attention_varlen_bwd_dkdv_causal --set query_ranges=bisect --run=cpu --size batch=4 --size heads=2 --size seq_q=150 --size seq_k=201 | FileCheck %s
// The default scans; with bisect the scan's loop is gone from the IR (each
// of the four bounds is found by a loop of its own, of 2 values):
// RUN: tilec --kernel=flash_attention_bwd_dkdv_causal --emit=tile | FileCheck %s --check-prefix=SCAN
// RUN: tilec --kernel=flash_attention_bwd_dkdv_causal --set query_ranges=bisect --emit=tile | FileCheck %s --check-prefix=BISECT
// CHECK-NOT: MISMATCH
// CHECK: dk {{.*}}: ok
// CHECK: dv {{.*}}: ok
// CHECK-NOT: MISMATCH
// SCAN: scf.for {{.*}} iter_args({{[^,]*}}, {{[^,]*}}, {{[^,]*}}, {{[^,]*}}) -> (i32, i32, i32, i32)
// BISECT-NOT: -> (i32, i32, i32, i32)
// BISECT-COUNT-4: scf.for {{.*}} iter_args({{[^,]*}}, {{[^,]*}}) -> (i32, i32)
// BISECT-NOT: -> (i32, i32, i32, i32)
