// tilec-bench says what is wrong with its command line or its kernels before
// it needs a GPU.
// RUN: rm -rf %t && mkdir -p %t/empty %t/unnamed
// RUN: not tilec-bench --bogus 2>&1 | FileCheck %s --check-prefix=ARG
// ARG: tilec-bench: unknown argument '--bogus'
// ARG: usage: tilec-bench --ptx-dir=DIR
// RUN: not tilec-bench --ptx-dir=%t/missing 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: tilec-bench: cannot open --ptx-dir '{{.*}}missing'
// RUN: not tilec-bench --ptx-dir=%t/empty 2>&1 | FileCheck %s --check-prefix=NOKERNELS
// NOKERNELS: tilec-bench: no flash_attention_fwd*.ptx in {{.*}}empty
// RUN: not tilec-bench --ptx-dir=%t/empty --filter=d128 2>&1 | FileCheck %s --check-prefix=FILTER
// FILTER: no flash_attention_fwd*.ptx matching 'd128' in
// RUN: not tilec-bench --seqlens=1024,0 2>&1 | FileCheck %s --check-prefix=SEQ
// SEQ: tilec-bench: --seqlens wants lengths in [1, 131072], got '0'
// RUN: not tilec-bench --seqlens=64k 2>&1 | FileCheck %s --check-prefix=SEQ2
// SEQ2: --seqlens wants lengths in [1, 131072], got '64k'
// Each pass lists its own kernels, and says which it looked for.
// RUN: not tilec-bench --pass=decode --ptx-dir=%t/empty 2>&1 | FileCheck %s --check-prefix=DECODE
// DECODE: tilec-bench: no flash_attention_decode*.ptx (but _combine) in {{.*}}empty
// RUN: not tilec-bench --pass=varlen --ptx-dir=%t/empty 2>&1 | FileCheck %s --check-prefix=VARLEN
// VARLEN: tilec-bench: no flash_attention_varlen*.ptx (but _bwd_) in {{.*}}empty
// RUN: not tilec-bench --pass=prefill 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: tilec-bench: --pass is fwd, bwd, decode or varlen, got 'prefill'
// RUN: not tilec-bench --pass=decode --splits=0 2>&1 | FileCheck %s --check-prefix=SPLITS
// SPLITS: tilec-bench: --splits wants 'auto' or counts in [1, 1024], got '0'
