// `--run=cpu` runs a kernel on the interpreter with random inputs and checks
// it against the kernel's double-precision reference.
// RUN: tilec --kernel=matmul --run=cpu --size m=33 --size n=17 --size k=70 | FileCheck %s --check-prefix=MM
// RUN: tilec --kernel=flash_attention_fwd_causal --run=cpu --size seq_q=90 --size seq_k=40 --seed=3 | FileCheck %s --check-prefix=FA

// MM: ran matmul on the CPU interpreter: grid (1, 1, 1)
// MM: c 561 elements: {{.*}}: ok

// FA: ran flash_attention_fwd_causal on the CPU interpreter: grid (1, 2, 1)
// FA: o {{.+}} NaN 0, inf mismatches 0: ok
// FA: lse {{.+}} NaN 0, inf mismatches 0: ok
