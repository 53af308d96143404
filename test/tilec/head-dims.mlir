// Any head dim that is a multiple of 8 up to 256, and a V/O head dim of its
// own (head_dim_v): the tiles take the next power of two of at least 16
// columns, the softmax scale is 1/sqrt(head_dim), and the launch metadata
// fixes each tensor's d ("sizes"), so a launch with another d is refused.
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=80 --set head_dim_v=48 --emit=tile | FileCheck %s --check-prefix=TILE
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=80 --set head_dim_v=48 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=META < %t.json
// RUN: tilec --kernel=flash_attention_bwd_dkdv --set head_dim=192 --set head_dim_v=128 --emit=tile | FileCheck %s --check-prefix=BWD
// RUN: tilec --kernel=flash_attention_decode --set head_dim=8 --emit=tile | FileCheck %s --check-prefix=EIGHT
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set head_dim_v=128 --emit=tile | FileCheck %s --check-prefix=SPLIT
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --emit=tile | FileCheck %s --check-prefix=SPLIT192
// RUN: tilec --kernel=flash_attention_fwd_causal --arch=sm_90a --set head_dim=192 --set head_dim_v=128 --emit=tile | FileCheck %s --check-prefix=SPLITMASK
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=QREG
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set split_columns=off --emit=llvm --print-pipeline | FileCheck %s --check-prefix=QSHARED
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=192 --set split_columns=off --emit=tile | FileCheck %s --check-prefix=PAD
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=96 --emit=tile | FileCheck %s --check-prefix=SPLIT96
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=96 --emit=llvm --print-pipeline | FileCheck %s --check-prefix=QSHARED
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --set head_dim=96 --emit=tile | FileCheck %s --check-prefix=PAD96
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=72 --emit=tile | FileCheck %s --check-prefix=SPLIT72
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_90a --set head_dim=112 --emit=tile | FileCheck %s --check-prefix=PAD112
// RUN: tilec --kernel=flash_attention_fwd --arch=sm_80 --set head_dim=192 --emit=tile | FileCheck %s --check-prefix=PAD
// RUN: tilec --kernel=flash_attention_fwd_causal --set head_dim=40 --set head_dim_v=200 --run=cpu --size seq_q=37 --size seq_k=70 | FileCheck %s --check-prefix=CPU

// Q and K: 80 columns in 128-wide tiles; V and O: 48 in 64-wide ones.
// TILE: !tile.ptr<bf16> -> !tile.desc<1x128x128xbf16>
// TILE-NEXT: !tile.ptr<bf16> -> !tile.desc<1x32x128xbf16>
// TILE-NEXT: !tile.ptr<bf16> -> !tile.desc<1x32x64xbf16>
// TILE-NEXT: !tile.ptr<bf16> -> !tile.desc<1x128x64xbf16>
// TILE: tile.online_softmax {{.*}} scale = 0.111803398 :

// META: {"name":"q",{{.*}}"sizes":[null,null,80]}
// META-NEXT: {"name":"k",{{.*}}"sizes":[null,null,80]}
// META-NEXT: {"name":"v",{{.*}}"sizes":[null,null,48]}
// META-NEXT: {"name":"o",{{.*}}"sizes":[null,null,48]}
// META-NEXT: {"name":"lse","kind":"tensor","dtype":"f32","rank":2,"aligned":false}

// dK, dV of DeepSeek-style heads: Q, K, dK 192 columns (256-wide tiles),
// V, dO, dV 128 (arguments q, k, v, do, ..., dk, dv).
// BWD-DAG: tile.make_desc %arg0{{.*}} -> !tile.desc<1x{{[0-9]+}}x256xbf16>
// BWD-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x{{[0-9]+}}x256xbf16>
// BWD-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x{{[0-9]+}}x128xbf16>
// BWD-DAG: tile.make_desc %arg21{{.*}} -> !tile.desc<1x{{[0-9]+}}x128xbf16>
// BWD-DAG: tile.make_desc %arg38{{.*}} -> !tile.desc<1x{{[0-9]+}}x256xbf16>
// BWD-DAG: tile.make_desc %arg45{{.*}} -> !tile.desc<1x{{[0-9]+}}x128xbf16>

// split_columns=auto on sm_90a: Q and K of d = 192 as 128 + 64 column tiles
// (faster than one 256-wide tile, bench/RESULTS.md session 27), V and O
// (128) one tile, in 128-key blocks where V is 128 wide (session 33) and
// the variant has no mask or score modifier (those spill at 128), 64 at
// d = 192; Q then stays in registers (a-in-shared=false). d = 96 splits
// into 64 + 32 (Q·Kᵀ's two parts chained: faster than one 128-wide tile,
// session 34) with the 128-wide tile's schedule (Q in shared memory, 128-key
// blocks), and so does 72 (64 + 16, the last 8 columns padding); 112
// (64 + 32 + 16, not measured) stays one 128-wide tile. On sm_80 96 stays
// one 128-wide tile, and so does 192 there or with split_columns=off (Q in
// shared memory again).
// SPLIT-DAG: tile.make_desc %arg0{{.*}} -> !tile.desc<1x128x128xbf16>
// SPLIT-DAG: tile.make_desc %arg0{{.*}} -> !tile.desc<1x128x64xbf16>
// SPLIT-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x64xbf16>
// SPLIT-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x128x128xbf16>
// SPLIT192-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x64x128xbf16>
// SPLIT192-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x64x64xbf16>
// SPLIT192-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x64x128xbf16>
// SPLIT192-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x64x64xbf16>
// SPLITMASK-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x64x128xbf16>
// SPLITMASK-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x64x128xbf16>
// QREG: --tilec-gpu-pipeline="a-in-shared=false
// QSHARED: --tilec-gpu-pipeline="a-in-shared=true
// PAD-NOT: !tile.desc<1x{{[0-9]+}}x{{(64|128)}}xbf16>
// PAD: tile.make_desc %arg0{{.*}} -> !tile.desc<1x{{[0-9]+}}x256xbf16>
// PAD-NOT: !tile.desc<1x{{[0-9]+}}x{{(64|128)}}xbf16>
// SPLIT96-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x64xbf16>
// SPLIT96-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x32xbf16>
// SPLIT96-DAG: tile.make_desc %arg14{{.*}} -> !tile.desc<1x128x32xbf16>
// SPLIT72-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x64xbf16>
// SPLIT72-DAG: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x16xbf16>
// PAD112-NOT: !tile.desc<1x{{[0-9]+}}x{{(16|32|64)}}xbf16>
// PAD112: tile.make_desc %arg7{{.*}} -> !tile.desc<1x128x128xbf16>
// PAD112-NOT: !tile.desc<1x{{[0-9]+}}x{{(16|32|64)}}xbf16>
// PAD96-NOT: !tile.desc<1x{{[0-9]+}}x64xbf16>
// PAD96: tile.make_desc %arg0{{.*}} -> !tile.desc<1x128x128xbf16>
// PAD96-NOT: !tile.desc<1x{{[0-9]+}}x64xbf16>

// d = 8: 16-column tiles (the MMAs' k).
// EIGHT: -> !tile.desc<1x{{[0-9]+}}x16xbf16>
// EIGHT: tile.online_softmax {{.*}} scale = 0.353553385 :

// CPU: o {{.*}}: ok
// CPU: lse {{.*}}: ok
