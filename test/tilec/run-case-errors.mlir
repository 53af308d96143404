// tilec-run-case checks a case before any GPU work: arguments that reach
// outside their buffers, malformed or hostile case files, and references
// that could not fail are errors naming the problem (exit 1); a good case
// gets as far as looking for a GPU (here: skipped, exit 77).
// RUN: tilec --kernel=flash_attention_fwd --export-case=%t.good --size seq_q=5 --size seq_k=3
// RUN: tilec-run-case %t.good > %t.good.out || true
// RUN: FileCheck %s --check-prefix=GOOD < %t.good.out
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad truncated
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad stride
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad negative
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad index
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad noargs
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=NOARGS
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad shape
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=SHAPE
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad tolerance
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=TOLERANCE
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad nan
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: python3 %S/Inputs/mutate-case.py %t.good %t.bad nested
// RUN: not tilec-run-case %t.bad 2>&1 | FileCheck %s --check-prefix=NESTED

// GOOD: {{^(SKIP|PASS) }}
// TRUNCATED: tilec-run-case: {{.*}}: argument 0: it reaches element {{[0-9]+}} of buffer 'q', which has {{[0-9]+}}
// STRIDE: argument 0: it reaches element 1099511628{{[0-9]+}} of buffer 'q', which has 640
// NEGATIVE: argument 0: negative sizes or strides are not taken
// INDEX: argument 0: names no buffer of the case
// NOARGS: case.json lists no arguments
// SHAPE: argument 0: a tensor needs integer shape and strides
// TOLERANCE: the tolerance must be a finite number >= 0
// NAN: the expected values of buffer 'o' are all NaN: the check could not fail
// NESTED: case.json: objects and arrays nested deeper than 64
