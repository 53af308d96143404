// tilec's --emit=gpu and --emit=llvm stages are the registered pipelines
// tilec-annotate-pipeline and tilec-gpu-pipeline: `tilec --print-pipeline`
// prints the tilec-opt command of a stage with every option resolved, and
// that command on the stage's input (the file, or a kernel's
// --emit=tile --raw IR) prints the stage's output byte for byte.

// A tile-IR file on sm_80 and sm_90a (the file's defaults: nothing aligned).
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=llvm --print-pipeline | FileCheck %s --check-prefix=FILE80
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=llvm -o %t.fa80.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-gpu-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=false" -o %t.fa80.opt.mlir
// RUN: diff %t.fa80.llvm.mlir %t.fa80.opt.mlir
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=llvm --print-pipeline | FileCheck %s --check-prefix=FILE90
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=llvm -o %t.fa90.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-gpu-pipeline="a-in-shared=false arch=sm_90a assume-aligned=false min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=true" -o %t.fa90.opt.mlir
// RUN: diff %t.fa90.llvm.mlir %t.fa90.opt.mlir
// FILE80: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=false"{{$}}
// FILE90: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=false arch=sm_90a assume-aligned=false min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=true"{{$}}

// The same through the textual pipeline, and the layout view (--emit=gpu),
// here with flags that differ from the defaults.
// RUN: tilec %S/../../examples/tile-ir/01-vector-add.mlir --emit=llvm --num-warps=8 --prefetch-loads -o %t.va.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --pass-pipeline="builtin.module(tilec-gpu-pipeline{num-warps=8 prefetch-loads=true})" -o %t.va.opt.mlir
// RUN: diff %t.va.llvm.mlir %t.va.opt.mlir
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=gpu --num-warps=8 --print-pipeline | FileCheck %s --check-prefix=ANNOTATE
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=gpu --num-warps=8 -o %t.fa.gpu.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-annotate-pipeline="num-warps=8" -o %t.fa.gpu.opt.mlir
// RUN: diff %t.fa.gpu.mlir %t.fa.gpu.opt.mlir
// ANNOTATE: {{^}}tilec-opt --tilec-annotate-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false min-blocks-per-sm=0 num-warps=8 pipeline-stages=2 prefetch-loads=false wgmma=false"{{$}}

// A DSL kernel: its schedule defaults (aligned, Q in shared memory at
// d = 128, two slots, wgmma on sm_90a) are resolved into the options.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=llvm --print-pipeline | FileCheck %s --check-prefix=KERNEL90
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=tile --raw -o %t.k90.tile.mlir
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=llvm -o %t.k90.llvm.mlir
// RUN: tilec-opt %t.k90.tile.mlir --tilec-gpu-pipeline="a-in-shared=true arch=sm_90a assume-aligned=true min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=true" -o %t.k90.opt.mlir
// RUN: diff %t.k90.llvm.mlir %t.k90.opt.mlir
// KERNEL90: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=true arch=sm_90a assume-aligned=true min-blocks-per-sm=0 num-warps=4 pipeline-stages=2 prefetch-loads=false wgmma=true"{{$}}
// The printed command itself, run (xargs undoes its quotes), on sm_80 and
// for --emit=ptx (whose MLIR part is the same pipeline).
// RUN: tilec --kernel=flash_attention_fwd_causal --emit=tile --raw -o %t.k80.tile.mlir
// RUN: tilec --kernel=flash_attention_fwd_causal --emit=llvm -o %t.k80.llvm.mlir
// RUN: tilec --kernel=flash_attention_fwd_causal --emit=ptx --print-pipeline | cut -d' ' -f2- | xargs tilec-opt %t.k80.tile.mlir -o %t.k80.opt.mlir
// RUN: diff %t.k80.llvm.mlir %t.k80.opt.mlir
// RUN: tilec --kernel=matmul --arch=sm_90a --emit=tile --raw -o %t.mm.tile.mlir
// RUN: tilec --kernel=matmul --arch=sm_90a --emit=gpu -o %t.mm.gpu.mlir
// RUN: tilec --kernel=matmul --arch=sm_90a --emit=gpu --print-pipeline | cut -d' ' -f2- | xargs tilec-opt %t.mm.tile.mlir -o %t.mm.opt.mlir
// RUN: diff %t.mm.gpu.mlir %t.mm.opt.mlir
// The tile stage is canonicalize + cse (none with --raw).
// RUN: tilec --kernel=matmul --print-pipeline | FileCheck %s --check-prefix=TILE
// RUN: tilec --kernel=matmul --raw --print-pipeline | FileCheck %s --check-prefix=RAW
// TILE: {{^}}tilec-opt --canonicalize --cse{{$}}
// RAW: {{^}}tilec-opt{{$}}

// Bad options name the option and the pipeline; nothing is printed.
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="num-warps=3" 2>&1 | FileCheck %s --check-prefix=BADWARPS
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="arch=sm_70" 2>&1 | FileCheck %s --check-prefix=BADARCH
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="wgmma=true" 2>&1 | FileCheck %s --check-prefix=BADWGMMA
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-annotate-pipeline="pipeline-stages=9" 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="min-blocks-per-sm=-1" 2>&1 | FileCheck %s --check-prefix=BADBLOCKS
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="num-warps=abc" 2>&1 | FileCheck %s --check-prefix=BADVALUE
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --tilec-gpu-pipeline="warps=4" 2>&1 | FileCheck %s --check-prefix=BADNAME
// RUN: not tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --pass-pipeline="builtin.module(tilec-gpu-pipeline{num-warps=64})" 2>&1 | FileCheck %s --check-prefix=BADTEXT
// RUN: not tilec --kernel=matmul --emit=llvm --print-pipeline --num-warps=6 2>&1 | FileCheck %s --check-prefix=DRIVER
// RUN: not tilec --kernel=matmul --emit=llvm --print-pipeline --wgmma 2>&1 | FileCheck %s --check-prefix=DRIVERWGMMA
// BADWARPS: error: tilec-gpu-pipeline: num-warps must be a power of two in [1, 32], got 3
// BADWARPS-NOT: llvm.func
// BADARCH: error: tilec-gpu-pipeline: unsupported arch 'sm_70'; accepted: sm_80, sm_90a
// BADWGMMA: error: tilec-gpu-pipeline: wgmma needs arch=sm_90a (got sm_80)
// BADSTAGES: error: tilec-annotate-pipeline: pipeline-stages must be in [0, 8], got 9
// BADBLOCKS: error: tilec-gpu-pipeline: min-blocks-per-sm must be in [0, 32], got -1
// BADVALUE: for the --num-warps option: 'abc' value invalid for long argument
// BADVALUE: error: tilec-gpu-pipeline: invalid options 'num-warps=abc'
// BADNAME: error: tilec-gpu-pipeline: invalid options 'warps=4': <Pass-Options-Parser>: no such option warps
// BADTEXT: error: tilec-gpu-pipeline: num-warps must be a power of two in [1, 32], got 64
// DRIVER: tilec: error: --num-warps must be a power of two in [1, 32], got 6
// DRIVERWGMMA: tilec: error: --wgmma needs --arch=sm_90a (got sm_80)
