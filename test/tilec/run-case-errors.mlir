// tilec-run-case reports what is wrong with a case before it needs a GPU.
// RUN: rm -rf %t && mkdir -p %t/empty %t/broken
// RUN: not tilec-run-case %t/empty 2>&1 | FileCheck %s --check-prefix=NOCASE
// RUN: echo '{"kernel": "k", "grid": [1, 1' > %t/broken/case.json
// RUN: not tilec-run-case %t/broken 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not tilec-run-case 2>&1 | FileCheck %s --check-prefix=NOARGS
// RUN: tilec-run-case --help | FileCheck %s --check-prefix=HELP
// A malformed launch grid in the metadata is reported before any GPU is needed.
// RUN: tilec --kernel=vector_add --export-case=%t/va --size n=100
// RUN: FileCheck %s --check-prefix=GRID < %t/va/kernel.json
// RUN: cp -r %t/va %t/zero && sed -i 's/"divisor":1024/"divisor":0/' %t/zero/kernel.json
// RUN: not tilec-run-case %t/zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: cp -r %t/va %t/axis && sed -i 's/"param":"n",/"param":"n","axis":1,/' %t/axis/kernel.json
// RUN: not tilec-run-case %t/axis 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: cp -r %t/va %t/name && sed -i 's/"param":"n"/"param":"m"/' %t/name/kernel.json
// RUN: not tilec-run-case %t/name 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: cp -r %t/va %t/formula && sed -i 's/"grid": \[/"grid": "[cdiv(n, 1024), 1, 1]", "old": [/' %t/formula/kernel.json
// RUN: not tilec-run-case %t/formula 2>&1 | FileCheck %s --check-prefix=FORMULA
// RUN: cp -r %t/va %t/two && sed -i '/"constant":1},$/d' %t/two/kernel.json
// RUN: not tilec-run-case %t/two 2>&1 | FileCheck %s --check-prefix=TWO
// Without cases (or without a GPU) the GPU test is skipped with exit 77.
// RUN: not tilec-run-case --cases-in=%t/empty | FileCheck %s --check-prefix=SKIP

// NOCASE: tilec-run-case: {{.*}}empty: no case.json (write one with tilec --export-case=DIR)
// BROKEN: tilec-run-case: {{.*}}broken: case.json: expected ',' or ']' at offset
// NOARGS: tilec-run-case: give one or more case directories (see --help)
// HELP: usage: tilec-run-case [--time=N] CASE_DIR...
// SKIP: SKIP: no kernel cases in {{.*}}empty
// GRID: "grid": [
// GRID-NEXT: {"param":"n","divisor":1024},
// GRID-NEXT: {"constant":1},
// GRID-NEXT: {"constant":1}
// ZERO: tilec-run-case: {{.*}}zero: kernel.json: kernel metadata: grid[0]: the divisor must be positive, got 0
// AXIS: tilec-run-case: {{.*}}axis: kernel.json: kernel metadata: grid[0]: 'n' is a scalar, it has no axis
// NAME: tilec-run-case: {{.*}}name: kernel.json: kernel metadata: grid[0]: 'm' is not a parameter of the kernel
// FORMULA: tilec-run-case: {{.*}}formula: kernel.json: kernel metadata: 'grid' is a formula ("[cdiv(n, 1024), 1, 1]"), as tilec wrote it before it wrote structured grids; recompile the kernel
// TWO: tilec-run-case: {{.*}}two: kernel.json: kernel metadata: 'grid' must be null or an array of three dimensions
