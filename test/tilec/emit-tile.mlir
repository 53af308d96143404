// Every registered kernel prints verified tile IR that round-trips through
// tilec-opt, as built (--raw) and simplified.
// RUN: tilec --kernel=vector_add | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=VADD
// RUN: tilec --kernel=matmul --raw | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=MM
// RUN: tilec --kernel=row_softmax | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=SM
// RUN: tilec --kernel=flash_attention_fwd --set head_dim=128 --set block_m=128 | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=FA
// RUN: tilec --kernel=flash_attention_fwd_causal --raw | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=CAUSAL
// RUN: tilec --kernel=flash_attention_fwd_sliding_window | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=CAUSAL
// RUN: tilec --kernel=flash_attention_fwd_gqa --set group=8 | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=GQA
// RUN: tilec --kernel=flash_attention_fwd_alibi | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=ALIBI
// RUN: tilec --kernel=flash_attention_fwd_softcap | tilec-opt --verify-roundtrip | FileCheck %s --check-prefix=SOFTCAP
// RUN: tilec --kernel=matmul -o %t.mlir && tilec %t.mlir | FileCheck %s --check-prefix=MM

// VADD-LABEL: func.func @vector_add(%{{.+}}: !tile.ptr<f32>, %{{.+}}: !tile.ptr<f32>, %{{.+}}: !tile.ptr<f32>, %{{.+}}: i32)
// VADD: tile.load {{.+}} mask
// VADD: tile.store {{.+}} mask

// MM-LABEL: func.func @matmul
// MM: scf.for
// MM: tile.dot {{.+}} : tensor<64x32xbf16>, tensor<32x64xbf16> -> tensor<64x64xf32>
// MM: tile.store_block

// SM-LABEL: func.func @row_softmax
// SM: tile.online_softmax {{.+}} scale = 1.000000e+00
// SM: math.exp2

// The Q block is loaded once, outside the loops; the key loop runs three
// times (masked head, unmasked middle, masked tail) with dot, the online
// softmax and dot again. O = acc / l divides once a row (a reciprocal)
// and multiplies the elements, never a division an element.
// FA-LABEL: func.func @flash_attention_fwd
// FA: tile.load_block {{.+}} -> tensor<1x128x128xbf16>
// FA: scf.for
// FA: tile.dot {{.+}} -> tensor<128x32xf32>
// FA: tile.online_softmax {{.+}} scale = 0.0883883461
// FA: tile.dot {{.+}} : tensor<128x32xbf16>, tensor<32x128xbf16> -> tensor<128x128xf32>
// FA: scf.for
// FA: scf.for
// FA-NOT: arith.divf {{.+}} : tensor<128x128xf32>
// FA: arith.divf {{.+}} : tensor<128xf32>
// FA-NOT: arith.divf
// FA: arith.mulf {{.+}} : tensor<128x128xf32>
// FA: tile.store_block {{.+}} tensor<1x128x128xbf16>
// FA: math.log2

// CAUSAL-LABEL: func.func @flash_attention_fwd_
// CAUSAL: arith.minsi
// CAUSAL: scf.for
// CAUSAL: arith.cmpi sle
// CAUSAL: arith.select

// GQA-LABEL: func.func @flash_attention_fwd_gqa
// GQA: arith.divsi

// The score modifier, with the scale before it, is built with fma
// contraction (s·scale + slope·d: one FFMA a score); the softmax after it
// multiplies as before.
// ALIBI-LABEL: func.func @flash_attention_fwd_alibi
// ALIBI: arith.mulf {{.+}} fastmath<contract> : tensor<{{.+}}xf32>
// ALIBI: math.exp2
// ALIBI: arith.addf {{.+}} fastmath<contract> : tensor<{{.+}}xf32>
// ALIBI: tile.online_softmax {{.+}} scale = 1.000000e+00

// SOFTCAP-LABEL: func.func @flash_attention_fwd_softcap
// SOFTCAP: math.tanh
