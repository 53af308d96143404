// tilec's --emit=gpu and --emit=llvm stages are the registered pipelines
// tilec-annotate-pipeline and tilec-gpu-pipeline: `tilec --print-pipeline`
// prints the tilec-opt command of a stage with every option resolved, and
// that command on the stage's input (the file, or a kernel's
// --emit=tile --raw IR) prints the stage's output byte for byte. (The
// canonicalized --emit=tile IR orders constants differently: same PTX, not
// the same LLVM-dialect text.)

// A tile-IR file on sm_80 and sm_90a (the file's defaults: nothing aligned).
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=llvm --print-pipeline | FileCheck %s --check-prefix=FILE80
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=llvm -o %t.fa80.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-gpu-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=false" -o %t.fa80.opt.mlir
// RUN: diff %t.fa80.llvm.mlir %t.fa80.opt.mlir
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=llvm --print-pipeline | FileCheck %s --check-prefix=FILE90
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --arch=sm_90a --emit=llvm -o %t.fa90.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-gpu-pipeline="a-in-shared=false arch=sm_90a assume-aligned=false exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=true" -o %t.fa90.opt.mlir
// RUN: diff %t.fa90.llvm.mlir %t.fa90.opt.mlir
// FILE80: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=false"{{$}}
// FILE90: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=false arch=sm_90a assume-aligned=false exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=true"{{$}}

// The same through the textual pipeline, and the layout view (--emit=gpu),
// here with flags that differ from the defaults.
// RUN: tilec %S/../../examples/tile-ir/01-vector-add.mlir --emit=llvm --num-warps=8 --prefetch-loads -o %t.va.llvm.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/01-vector-add.mlir --pass-pipeline="builtin.module(tilec-gpu-pipeline{num-warps=8 prefetch-loads=true})" -o %t.va.opt.mlir
// RUN: diff %t.va.llvm.mlir %t.va.opt.mlir
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=gpu --num-warps=8 --print-pipeline | FileCheck %s --check-prefix=ANNOTATE
// RUN: tilec %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --emit=gpu --num-warps=8 -o %t.fa.gpu.mlir
// RUN: tilec-opt %S/../../examples/tile-ir/04-flash-attention-fwd.mlir --tilec-annotate-pipeline="num-warps=8" -o %t.fa.gpu.opt.mlir
// RUN: diff %t.fa.gpu.mlir %t.fa.gpu.opt.mlir
// ANNOTATE: {{^}}tilec-opt --tilec-annotate-pipeline="a-in-shared=false arch=sm_80 assume-aligned=false exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=8 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=false"{{$}}

// A DSL kernel: its schedule defaults (aligned, Q in shared memory at
// d = 128, two slots, wgmma on sm_90a) are resolved into the options.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --lowering=tile-to-llvm --emit=llvm --print-pipeline | FileCheck %s --check-prefix=KERNEL90
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --lowering=tile-to-llvm --emit=tile --raw -o %t.k90.tile.mlir
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --lowering=tile-to-llvm --emit=llvm -o %t.k90.llvm.mlir
// RUN: tilec-opt %t.k90.tile.mlir --tilec-gpu-pipeline="a-in-shared=true arch=sm_90a assume-aligned=true exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=true" -o %t.k90.opt.mlir
// RUN: diff %t.k90.llvm.mlir %t.k90.opt.mlir
// KERNEL90: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=true arch=sm_90a assume-aligned=true exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=true"{{$}}
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
// The target is set once: a kernel's tile IR records it (tilec.target), the
// pipelines read it for every option not given (and record what they ran
// for), tilec reads it from a file, and the launch metadata is written from it.
// RUN: FileCheck %s --check-prefix=RECORD < %t.k90.tile.mlir
// RUN: tilec-opt %t.k90.tile.mlir --tilec-gpu-pipeline -o %t.k90.rec.mlir
// RUN: diff %t.k90.llvm.mlir %t.k90.rec.mlir
// RUN: tilec %t.k90.tile.mlir --emit=llvm -o %t.k90.file.mlir
// RUN: diff %t.k90.llvm.mlir %t.k90.file.mlir
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --lowering=tile-to-llvm --num-warps=8 --emit=llvm -o %t.k90w8.llvm.mlir
// RUN: tilec-opt %t.k90.tile.mlir --tilec-gpu-pipeline="num-warps=8" -o %t.k90w8.opt.mlir
// RUN: diff %t.k90w8.llvm.mlir %t.k90w8.opt.mlir
// RUN: FileCheck %s --check-prefix=RECORD8 < %t.k90w8.opt.mlir
// RUN: tilec %t.k90.tile.mlir --emit=ptx -o %t.k90.ptx
// RUN: FileCheck %s --check-prefix=RECMETA < %t.k90.json
// An explicit --arch re-derives wgmma instead of keeping the record's.
// RUN: tilec %t.k90.tile.mlir --arch=sm_80 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=REARCH
// RECORD: module attributes {tilec.target = {a_in_shared = true, arch = "sm_90a", assume_aligned = true, exp2_on_fma = 0 : i64, f32_staging_bytes = 128 : i64, keep_work_above_waits = false, lowering = "tile-to-llvm", min_blocks_per_sm = 0 : i64, num_warps = 4 : i64, persistent = false, ping_pong = false, pipeline_stages = 2 : i64, prefetch_loads = false, tile_counter = false, tile_slots = 1 : i64, tma = false, wait_before_next_dot = false, warp_specialize = false, wgmma = true}}
// RECORD8: module attributes {tilec.target = {a_in_shared = true, arch = "sm_90a", assume_aligned = true, exp2_on_fma = 0 : i64, f32_staging_bytes = 128 : i64, keep_work_above_waits = false, lowering = "tile-to-llvm", min_blocks_per_sm = 0 : i64, num_warps = 8 : i64, persistent = false, ping_pong = false, pipeline_stages = 2 : i64, prefetch_loads = false, tile_counter = false, tile_slots = 1 : i64, tma = false, wait_before_next_dot = false, warp_specialize = false, wgmma = true}}
// RECMETA: "arch": "sm_90a",
// RECMETA-NEXT: "num_warps": 4,
// RECMETA-NEXT: "threads_per_block": 128,
// REARCH: {{^}}tilec-opt --tilec-gpu-pipeline="a-in-shared=true arch=sm_80 assume-aligned=true exp2-on-fma=0 f32-staging-bytes=128 keep-work-above-waits=false lowering=tile-to-llvm min-blocks-per-sm=0 num-warps=4 persistent=false ping-pong=false pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=false wait-before-next-dot=false warp-specialize=false wgmma=false"{{$}}

// A malformed record is an error naming the entry, in tilec-opt and tilec.
// RUN: echo 'module attributes {tilec.target = {num_warps = "four"}} {}' > %t.badtype.mlir
// RUN: not tilec-opt %t.badtype.mlir --tilec-gpu-pipeline 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: not tilec %t.badtype.mlir --emit=llvm 2>&1 | FileCheck %s --check-prefix=BADTYPE
// RUN: echo 'module attributes {tilec.target = {warps = 4}} {}' > %t.badentry.mlir
// RUN: not tilec-opt %t.badentry.mlir --tilec-annotate-pipeline 2>&1 | FileCheck %s --check-prefix=BADENTRY
// RUN: echo 'module attributes {tilec.target = [4]} {}' > %t.baddict.mlir
// RUN: not tilec %t.baddict.mlir --emit=gpu 2>&1 | FileCheck %s --check-prefix=BADDICT
// RUN: echo 'module attributes {tilec.target = {num_warps = 3 : i64}} {}' > %t.badvalue.mlir
// RUN: not tilec-opt %t.badvalue.mlir --tilec-gpu-pipeline 2>&1 | FileCheck %s --check-prefix=BADRECVALUE
// RUN: not tilec %t.badvalue.mlir --emit=llvm 2>&1 | FileCheck %s --check-prefix=BADRECDRIVER
// BADTYPE: error: 'tilec.target' entry 'num_warps' must be an i64 integer, got "four"
// BADENTRY: error: 'tilec.target' has an unknown entry 'warps'; known: arch, num_warps, assume_aligned, pipeline_stages, a_in_shared, min_blocks_per_sm, wgmma, tma, warp_specialize, ping_pong, persistent, tile_counter, tile_slots, exp2_on_fma, wait_before_next_dot, keep_work_above_waits, f32_staging_bytes, prefetch_loads, lowering
// BADDICT: error: 'tilec.target' must be a dictionary, got [4]
// BADRECVALUE: error: tilec-gpu-pipeline: num-warps must be a power of two in [1, 32], got 3
// BADRECDRIVER: tilec: error: the input's tilec.target: num-warps must be a power of two in [1, 32], got 3

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

// The sm_90a attention default at d = 128 (warp-specialized, ping-pong,
// a persistent grid without a mask): the schedule's choice is printed and
// recorded like any option.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=llvm --print-pipeline | FileCheck %s --check-prefix=WS90
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=tile --raw -o %t.ws.tile.mlir
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=llvm -o %t.ws.llvm.mlir
// RUN: tilec-opt %t.ws.tile.mlir --tilec-gpu-pipeline -o %t.ws.rec.mlir
// RUN: diff %t.ws.llvm.mlir %t.ws.rec.mlir
// WS90: lowering=tilegpu min-blocks-per-sm=0 num-warps=8 persistent=true ping-pong=true pipeline-stages=2 prefetch-loads=false tile-counter=false tile-slots=1 tma=true wait-before-next-dot=false warp-specialize=true wgmma=true"

// --wait-before-next-dot reaches tilegpu-sink-dot-waits through the pipeline
// options (and the target attribute tilec-opt reads back).
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --wait-before-next-dot --emit=llvm --print-pipeline | FileCheck %s --check-prefix=WAITOPT
// WAITOPT: tilec-opt --tilec-gpu-pipeline="{{.*}} lowering=tilegpu {{.*}} wait-before-next-dot=true
