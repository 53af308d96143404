// tilec-run-case reports what is wrong with a case before it needs a GPU.
// RUN: rm -rf %t && mkdir -p %t/empty %t/broken
// RUN: not tilec-run-case %t/empty 2>&1 | FileCheck %s --check-prefix=NOCASE
// RUN: echo '{"kernel": "k", "grid": [1, 1' > %t/broken/case.json
// RUN: not tilec-run-case %t/broken 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not tilec-run-case 2>&1 | FileCheck %s --check-prefix=NOARGS
// RUN: tilec-run-case --help | FileCheck %s --check-prefix=HELP
// Without cases (or without a GPU) the GPU test is skipped with exit 77.
// RUN: not tilec-run-case --cases-in=%t/empty | FileCheck %s --check-prefix=SKIP

// NOCASE: tilec-run-case: {{.*}}empty: no case.json (write one with tilec --export-case=DIR)
// BROKEN: tilec-run-case: {{.*}}broken: case.json: expected ',' or ']' at offset
// NOARGS: tilec-run-case: give one or more case directories (see --help)
// HELP: usage: tilec-run-case [--time=N] CASE_DIR...
// SKIP: SKIP: no kernel cases in {{.*}}empty
