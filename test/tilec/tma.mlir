// --tma (sm_90a, --lowering=tilegpu): attention's K and V rings are filled
// by TMA onto mbarriers. The PTX takes two tensor maps as trailing
// __grid_constant__ parameters, the metadata says which tensor and box each
// is for (the runtime encodes them at launch), and each 64x128 tile is two
// boxes of one 128-byte column block.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --num-warps=4 --set block_n=64 --set row_groups=2 --set overlap=off --arch=sm_90a --lowering=tilegpu --tma --warp-specialize=false --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.json
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --lowering=tilegpu --tma --pipeline-stages=3 --emit=ptx -o %t.causal.ptx
// RUN: FileCheck %s --check-prefix=CAUSAL < %t.causal.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --num-warps=8 --set row_groups=1 --arch=sm_90a --lowering=tilegpu --tma --warp-specialize --emit=ptx -o %t.ws.ptx
// RUN: FileCheck %s --check-prefix=WS < %t.ws.ptx
// RUN: FileCheck %s --check-prefix=WSMETA < %t.ws.json
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --lowering=tilegpu --tma=false --warp-specialize --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=NOTMA
// The schedules' defaults on sm_90a: d = 64 (dense, causal, GQA, softcap)
// takes TMA rings on two warpgroups, d = 256 also a producer warpgroup and
// ping-pong; the command line still decides (--lowering=tile-to-llvm,
// --tma=false), and sm_80 and the heavy variants (a gather per score: the
// relative-bias table) keep cp.async.
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --emit=ptx -o %t.d64.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT64 < %t.d64.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=256 --arch=sm_90a --emit=ptx -o %t.d256.ptx
// RUN: FileCheck %s --check-prefix=DEFAULT256 < %t.d256.ptx
// d = 256 (as d = 128) issues each step's Q·Kᵀ beside the previous block's
// P·V: the key loops hand that block's P (bf16, 128x64) to the next step.
// They carry each thread's share of the row sums (row_sums=end: 128x4),
// and rescale O lazily (lazy_rescale: the max moves by more than 8 only,
// tile.scale_rows).
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=256 --arch=sm_90a --emit=tile | FileCheck %s --check-prefix=OVERLAP256
// OVERLAP256-COUNT-3: scf.for {{.+}} -> (tensor<128x256xf32>, tensor<128xf32>, tensor<128x4xf32>, tensor<128x64xbf16>)
// OVERLAP256: tile.online_softmax {{.+}} {rescale_threshold = 8.000000e+00 : f32}
// OVERLAP256: tile.scale_rows {{.+}} : tensor<128x256xf32>, tensor<128xf32>
// The row sums kept per thread (128x4) are the sm_90a TMA schedules'
// default (d = 64 and 128 too), the lazy rescale only from d = 192; sm_80
// sums every step.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --emit=tile | FileCheck %s --check-prefix=SUMS64
// SUMS64: scf.for {{.+}} -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128x4xf32>)
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --arch=sm_90a --emit=tile | FileCheck %s --check-prefix=SUMS128
// SUMS128: scf.for {{.+}} -> (tensor<128x128xf32>, tensor<128xf32>, tensor<128x4xf32>, tensor<128x128xbf16>)
// SUMS128-NOT: tile.scale_rows
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --emit=tile | FileCheck %s --check-prefix=SUMS80
// SUMS80: scf.for {{.+}} -> (tensor<128x64xf32>, tensor<128xf32>, tensor<128xf32>)
// Not over a block mask's lists (document masks): one dot a step, no P handed on.
// RUN: tilec --kernel=flash_attention_fwd_document --set head_dim=256 --arch=sm_90a --emit=tile | FileCheck %s --check-prefix=LISTS256
// LISTS256-COUNT-2: scf.for {{.+}} -> (tensor<128x256xf32>, tensor<128xf32>, tensor<128x4xf32>)  : i32
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --lowering=tile-to-llvm --emit=ptx -o %t.old.ptx
// RUN: FileCheck %s --check-prefix=NOTDEFAULT < %t.old.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=256 --arch=sm_90a --tma=false --emit=ptx -o %t.old256.ptx
// RUN: FileCheck %s --check-prefix=NOTDEFAULT < %t.old256.ptx
// RUN: tilec --kernel=flash_attention_fwd_relative_bias_table --arch=sm_90a --emit=ptx -o %t.heavy.ptx
// RUN: FileCheck %s --check-prefix=NOTDEFAULT < %t.heavy.ptx
// RUN: tilec --kernel=flash_attention_fwd --emit=ptx -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=NOTDEFAULT < %t.sm80.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --num-warps=8 --set row_groups=1 --arch=sm_90a --lowering=tilegpu --tma --warp-specialize --ping-pong --emit=ptx -o %t.pp.ptx
// RUN: FileCheck %s --check-prefix=PINGPONG < %t.pp.ptx
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --num-warps=4 --set block_n=64 --set row_groups=2 --arch=sm_90a --lowering=tilegpu --tma --warp-specialize --ping-pong --emit=ptx -o %t.pp1.ptx 2>&1 | FileCheck %s --check-prefix=PINGPONG1
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --lowering=tilegpu --tma --ping-pong --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=NOWS
// RUN: tilec --kernel=vector_add --arch=sm_90a --lowering=tilegpu --assume-aligned --tma --warp-specialize --emit=ptx -o %t.va.ptx 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --lowering=tilegpu --tma --pipeline-stages=1 --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not tilec --kernel=matmul --arch=sm_90a --lowering=tilegpu --tma --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=ALIGNED
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_80 --lowering=tilegpu --tma --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --lowering=tile-to-llvm --tma --emit=ptx -o %t.x.ptx 2>&1 | FileCheck %s --check-prefix=SM80

// CHECK: .entry flash_attention_fwd(
// CHECK: .param .align 64 .b8 flash_attention_fwd_param_33[128],
// CHECK-NEXT: .param .align 64 .b8 flash_attention_fwd_param_34[128]
// CHECK: mbarrier.init.shared.b64
// CHECK: mbarrier.arrive.expect_tx.shared.b64
// CHECK: cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.try_wait.parity.shared.b64
// CHECK-NOT: cp.async.cg
// CHECK-NOT: cp.async.wait_group

// META: "tensor_maps": [
// META-NEXT: {"param":"k","box":[1,64,64],"swizzle":128}
// META-NEXT: {"param":"v","box":[1,64,64],"swizzle":128}
// META: ]

// Three slots; d = 64 tiles are one box each.
// CAUSAL: mbarrier.try_wait.parity
// CAUSAL-NOT: cp.async.cg

// SM80: error: --tma needs --arch=sm_90a and --lowering=tilegpu

// --warp-specialize with 8 consumer warps: a producer warpgroup more (384
// threads), its registers lowered, the consumers' raised; the launch takes
// the threads from the kernel.
// WS: .reqntid 384, 1, 1
// WS-DAG: setmaxnreg.dec.sync.aligned.u32 {{[[:space:]]*}}24;
// WS-DAG: setmaxnreg.inc.sync.aligned.u32 {{[[:space:]]*}}240;
// WS-DAG: mbarrier.try_wait.parity
// WS-DAG: cp.async.bulk.tensor.3d
// WSMETA: "num_warps": 8,
// WSMETA-NEXT: "threads_per_block": 384,
// NOTMA: error: --warp-specialize needs --tma
// DEFAULT64: .reqntid 256, 1, 1
// DEFAULT64: cp.async.bulk.tensor.3d
// DEFAULT64-NOT: setmaxnreg
// DEFAULT256: .reqntid 384, 1, 1
// DEFAULT256-DAG: setmaxnreg.inc.sync.aligned.u32 {{[[:space:]]*}}240;
// DEFAULT256-DAG: cp.async.bulk.tensor.3d
// DEFAULT256-DAG: bar.sync {{%r[0-9]+}}, 256;
// NOTDEFAULT-NOT: cp.async.bulk.tensor
// NOTDEFAULT-NOT: setmaxnreg
// --ping-pong: the two consumer warpgroups take turns on named barriers 3
// and 4 (the roles' own are 1 and 2), picked by the warpgroup index.
// PINGPONG: .reqntid 384, 1, 1
// PINGPONG: bar.arrive 3, 256;
// PINGPONG: bar.sync {{%r[0-9]+}}, 256;
// PINGPONG-NOT: wgmma.commit_group
// PINGPONG: wgmma.fence.sync.aligned
// PINGPONG: wgmma.commit_group.sync.aligned
// PINGPONG: bar.arrive {{%r[0-9]+}}, 256;
// PINGPONG: bar.sync 3, 256;
// With one consumer warpgroup (4 warps) there are no turns to take.
// PINGPONG1: kernel flash_attention_fwd:0:0: warning: not ping-ponged: role 1 has one warpgroup
// NOWS: error: --ping-pong needs --warp-specialize
// A kernel with no streamed loop is left as it is, without a warning.
// QUIET-NOT: warning
// STAGES: error: --tma fills the shared-memory rings of wgmma operands: it needs --wgmma, --assume-aligned and --pipeline-stages of at least 2 (got wgmma=true assume-aligned=true pipeline-stages=1)
// ALIGNED: error: --tma {{.*}} (got wgmma=true assume-aligned=false pipeline-stages=2)
