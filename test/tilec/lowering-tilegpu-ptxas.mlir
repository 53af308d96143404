// The PTX of --lowering=tilegpu assembles for its arch, spill-free.
// REQUIRES: ptxas
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --emit=ptx -o %t.80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.80.ptx -o %t.80.cubin 2>&1 | FileCheck %s
// RUN: tilec --kernel=matmul --lowering=tilegpu --assume-aligned --arch=sm_90a --pipeline-stages=3 --emit=ptx -o %t.90.ptx
// RUN: %ptxas -arch=sm_90a -v %t.90.ptx -o %t.90.cubin 2>&1 | FileCheck %s
// RUN: tilec --kernel=matmul --lowering=tilegpu --arch=sm_90a --emit=ptx -o %t.general.ptx
// RUN: %ptxas -arch=sm_90a -v %t.general.ptx -o %t.general.cubin 2>&1 | FileCheck %s
// CHECK: 0 bytes spill stores, 0 bytes spill loads
