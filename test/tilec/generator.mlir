// A generator program (examples/generator) registers its own kernel and gets
// tilec's command line by linking the driver's main.
// RUN: tilec-relative-bias --list-kernels | FileCheck %s --check-prefix=LIST
// RUN: tilec-relative-bias --kernel=relative_bias_attention --set slope=0.5 | tilec-opt | FileCheck %s --check-prefix=IR
// RUN: tilec-relative-bias --kernel=relative_bias_attention --run=cpu --size seq_q=50 | FileCheck %s --check-prefix=CPU
// RUN: not tilec-relative-bias --kernel=matmul 2>&1 | FileCheck %s --check-prefix=ONLY

// LIST: relative_bias_attention {{.*}}defined outside the compiler
// LIST: --set slope
// IR-LABEL: func.func @relative_bias_attention
// IR: math.absf
// CPU: o {{.+}}: ok
// CPU: lse {{.+}}: ok
// ONLY: unknown kernel 'matmul'; registered kernels: relative_bias_attention
