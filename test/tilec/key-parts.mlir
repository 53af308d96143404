// The forward's key blocks need not be powers of two: block_n = 176 is
// taken as parts of 128 + 32 + 16 keys (FlashAttention-3's 128 x 176 tiles
// at d = 128), each part's scores a tile of its own, one online-softmax
// step over all of them and P·V chained over the parts. Checked against the
// double-precision reference on the CPU interpreter: ragged sizes (a last
// block of a few keys, a part past seq_k), rows without keys, masks and
// score modifiers over the parts, overlapped and not, GQA.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=64 --set block_n=176 --run=cpu --size seq_q=300 --size seq_k=333 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --set block_n=176 --run=cpu --size seq_q=200 --size seq_k=410 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set block_n=112 --set overlap=off --run=cpu --size seq_q=190 --size seq_k=45 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd_sliding_window --arch=sm_90a --set block_n=80 --run=cpu --size seq_q=150 --size seq_k=401 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd_alibi --arch=sm_90a --set head_dim=128 --set block_n=48 --run=cpu --size seq_q=100 --size seq_k=170 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd_gqa --arch=sm_80 --set group=3 --set block_n=176 --run=cpu --size heads=6 --size seq_q=77 --size seq_k=130 | FileCheck %s
// The overlapped loop's last P·V in a loop of one step (last_values=ring,
// the default with key parts), with 128-key blocks too:
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=128 --set last_values=ring --run=cpu --size seq_q=200 --size seq_k=333 | FileCheck %s
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=64 --set block_n=80 --set last_values=own --run=cpu --size seq_q=100 --size seq_k=97 | FileCheck %s
// CHECK-NOT: MISMATCH
// CHECK: o {{.*}}: ok
// CHECK: lse {{.*}}: ok
//
// The parts in the IR: three K blocks at rows j, j + 128, j + 160, three
// score tiles, one step of the online softmax over them, P·V chained.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=64 --set block_n=176 --emit=tile | FileCheck %s --check-prefix=TILE
// TILE: scf.for %[[J:.*]] = {{.*}} step %c176_i32
// TILE: tile.load_block %{{.*}}[%{{.*}}, %[[J]], %c0_i32] : !tile.desc<1x128x64xbf16>
// TILE: tile.load_block %{{.*}} : !tile.desc<1x32x64xbf16>
// TILE: tile.load_block %{{.*}} : !tile.desc<1x16x64xbf16>
// TILE: tile.dot {{.*}} -> tensor<128x128xf32>
// TILE: tile.dot {{.*}} -> tensor<128x32xf32>
// TILE: tile.dot {{.*}} -> tensor<128x16xf32>
// TILE: %{{.*}}, %[[P:.*]]:3, %{{.*}} = tile.online_softmax %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} scale
// TILE: %[[O1:.*]] = tile.dot {{.*}} : tensor<128x128xbf16>, tensor<128x64xbf16>
// TILE: %[[O2:.*]] = tile.dot {{.*}}, %[[O1]] : tensor<128x32xbf16>, tensor<32x64xbf16>
// TILE: tile.dot {{.*}}, %[[O2]] : tensor<128x16xbf16>, tensor<16x64xbf16>
// With overlap (d = 128) the last P·V is a loop of one step: V alone,
// no K, the previous block's P from the key loops.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set block_n=176 --emit=tile | FileCheck %s --check-prefix=TAIL
// TAIL: scf.for %[[L:.*]] = %{{.*}} to %{{.*}} step %c176_i32 iter_args(%{{[^,]*}} = %[[KEYS:[0-9]+]]#0) -> (tensor<128x128xf32>)
// TAIL-NEXT: tile.load_block %{{.*}}[%{{.*}}, %[[L]], %c0_i32] : !tile.desc<1x128x128xbf16>
// TAIL-NOT: scf.yield
// TAIL: tile.load_block %{{.*}} : !tile.desc<1x32x128xbf16>
// TAIL-NOT: scf.yield
// TAIL: tile.load_block %{{.*}} : !tile.desc<1x16x128xbf16>
// TAIL-NEXT: tile.reshape
// TAIL-NEXT: tile.dot %[[KEYS]]#3
// TAIL-NEXT: tile.dot %[[KEYS]]#4
// TAIL-NEXT: tile.dot %[[KEYS]]#5
// TAIL-NEXT: scf.yield
//
// Parts under 16 keys cannot be (P·V takes 16 keys at a time), and the
// other kernels keep power-of-two key blocks.
// RUN: not tilec --kernel=flash_attention_fwd --set block_n=24 --emit=tile 2>&1 | FileCheck %s --check-prefix=SIXTEEN
// RUN: not tilec --kernel=flash_attention_bwd_dkdv --set block_n=176 --emit=tile 2>&1 | FileCheck %s --check-prefix=POW2
// RUN: not tilec --kernel=flash_attention_fwd_document --set block_n=176 --emit=tile 2>&1 | FileCheck %s --check-prefix=MASKBLOCK
// SIXTEEN: error: block_n = 24 must be a power of two or a multiple of 16
// POW2: error: kernel 'flash_attention_bwd_dkdv': 'block_n' must be a power of two
// MASKBLOCK: error: a block-mask variant's block_m and block_n must divide 128
//
// The forward's PTX at d = 64 in 176-key blocks (the rings hold each part).
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=64 --set block_n=176 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// PTX: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// At d = 128 in 176-key blocks and d = 256 in 80-key blocks the kernel fits
// in shared memory only with the last V block in the key loops' rings (a
// buffer of its own is 44 / 40 KiB more): one TMA box a part, no other.
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set block_n=176 --emit=ptx -o %t.128.ptx
// RUN: FileCheck %s --check-prefix=MAPS < %t.128.json
// RUN: not tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=128 --set block_n=176 --set last_values=own --emit=ptx -o %t.own.ptx 2>&1 | FileCheck %s --check-prefix=OWN
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=256 --set block_n=80 --emit=ptx -o %t.256.ptx
// MAPS: "tensor_maps": [
// MAPS-NEXT: {"param":"k","box":[1,128,64],"swizzle":128},
// MAPS-NEXT: {"param":"k","box":[1,32,64],"swizzle":128},
// MAPS-NEXT: {"param":"k","box":[1,16,64],"swizzle":128},
// MAPS-NEXT: {"param":"v","box":[1,128,64],"swizzle":128},
// MAPS-NEXT: {"param":"v","box":[1,32,64],"swizzle":128},
// MAPS-NEXT: {"param":"v","box":[1,16,64],"swizzle":128},
// MAPS-NEXT: {"param":"q","box":[1,128,64],"swizzle":128},
// MAPS-NEXT: {"param":"o","box":[1,128,64],"swizzle":128}
// MAPS-NEXT: ]
// OWN: error: kernel 'flash_attention_fwd' needs {{[0-9]+}} bytes of shared memory; sm_90a allows at most 232448
