// A generator program (examples/generator) registers its own variant in a
// few lines (attention/Registration.h) and gets every attention kernel of it
// (forward, backward, packed batches, decoding) with tilec's command line, by
// linking the driver's main.
// RUN: tilec-relative-bias --list-kernels | FileCheck %s --check-prefix=LIST
// RUN: tilec-relative-bias --kernel=flash_attention_fwd_relative_bias --set slope=0.5 | tilec-opt | FileCheck %s --check-prefix=IR
// RUN: tilec-relative-bias --kernel=flash_attention_fwd_relative_bias --run=cpu --size seq_q=50 | FileCheck %s --check-prefix=CPU
// RUN: tilec-relative-bias --kernel=flash_attention_bwd_dkdv_relative_bias --set slope=0.3 --run=cpu --size seq_q=50 --size seq_k=70 | FileCheck %s --check-prefix=BWD
// RUN: tilec-relative-bias --kernel=flash_attention_decode_relative_bias --run=cpu | FileCheck %s --check-prefix=DECODE
// RUN: not tilec-relative-bias --kernel=matmul 2>&1 | FileCheck %s --check-prefix=ONLY

// LIST: flash_attention_bwd_dkdv_relative_bias backward of flash_attention_fwd_relative_bias
// LIST: flash_attention_bwd_dq_relative_bias
// LIST: flash_attention_bwd_prep
// LIST: flash_attention_decode_combine
// LIST: flash_attention_decode_paged_relative_bias
// LIST: flash_attention_decode_relative_bias
// LIST: flash_attention_fwd_relative_bias {{.*}}defined outside the compiler
// LIST: --set slope {{.*}} default 0.1 {{.*}}penalty per position of distance
// LIST: flash_attention_varlen_bwd_dkdv_relative_bias
// LIST: flash_attention_varlen_bwd_dq_relative_bias
// LIST: flash_attention_varlen_bwd_prep
// LIST: flash_attention_varlen_relative_bias
// IR-LABEL: func.func @flash_attention_fwd_relative_bias
// IR: math.absf
// CPU: o {{.+}}: ok
// CPU: lse {{.+}}: ok
// BWD: dk {{.+}}: ok
// BWD: dv {{.+}}: ok
// DECODE: o_part {{.+}}: ok
// ONLY: unknown kernel 'matmul'; registered kernels: {{.*}}flash_attention_fwd_relative_bias
