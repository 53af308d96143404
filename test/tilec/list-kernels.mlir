// `tilec --list-kernels` shows every example and attention variant with
// its parameters.
// RUN: tilec --list-kernels | FileCheck %s

// CHECK-DAG: {{^}}flash_attention_fwd {{.*}}non-causal
// CHECK-DAG: {{^}}flash_attention_fwd_alibi
// CHECK-DAG: {{^}}flash_attention_fwd_causal
// CHECK-DAG: {{^}}flash_attention_fwd_gqa
// CHECK-DAG: {{^}}flash_attention_fwd_sliding_window
// CHECK-DAG: {{^}}flash_attention_fwd_softcap
// CHECK-DAG: {{^}}matmul
// CHECK-DAG: {{^}}row_softmax
// CHECK-DAG: {{^}}vector_add
// CHECK-DAG: --set head_dim {{.*}}int (multiple of 8)
// CHECK-DAG: --set head_dim_v {{.*}}int (multiple of 8)
// CHECK-DAG: --set window
// CHECK-DAG: --size seq_q
