// A row statistic goes back onto the rows within threads: expand_dims keeps
// the registers, broadcast picks them; a broadcast that would need other
// threads' values is reported.
// RUN: tilec-opt %s -split-input-file --convert-tilegpu-to-nvvm -verify-diagnostics \
// RUN:   --mlir-print-op-on-diagnostic=false | FileCheck %s

#wgmma = #tilegpu.wgmma<warpgroups = 1>
#rows = #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32]]>
#rows2 = #tilegpu.linear<reg = [[8, 0]], lane = [[0, 0], [0, 0], [1, 0], [2, 0], [4, 0]], warp = [[16, 0], [32, 0]]>

// Each of the 32 accumulator registers takes one of the 2 row registers.
// CHECK-LABEL: func.func @rows_back
// CHECK-SAME: (%[[R:.+]]: !llvm.struct<(f32, f32)>)
// CHECK-COUNT-32: llvm.extractvalue %[[R]]
// CHECK-NOT: nvvm.shfl
func.func @rows_back(%r: tensor<64xf32, #rows>) -> tensor<64x64xf32, #wgmma> {
  %e = tile.expand_dims %r axis = 1 : tensor<64xf32, #rows> -> tensor<64x1xf32, #rows2>
  %b = tile.broadcast %e : tensor<64x1xf32, #rows2> -> tensor<64x64xf32, #wgmma>
  return %b : tensor<64x64xf32, #wgmma>
}

// -----

#blocked = #tilegpu.blocked<size_per_thread = [1, 1], threads = [32, 1], warps = [4, 1], order = [0, 1]>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
func.func @across_threads(%r: tensor<128x1xf32, #blocked>) {
  // expected-error @+2 {{'tile.broadcast' op expected a broadcast within threads}}
  // expected-error @+1 {{failed to legalize operation 'tile.broadcast'}}
  %b = tile.broadcast %r : tensor<128x1xf32, #blocked> -> tensor<128x64xf32, #wgmma>
  return
}

// -----

// tile.scale_rows: each thread asks whether one of its 2 row factors is
// not 1, one vote.sync answers for its warp, and a warp where some factor
// is not 1 multiplies each of the 32 accumulator registers by its row's
// factor; the other branch hands the registers back unchanged.
#wgmma = #tilegpu.wgmma<warpgroups = 1>
#rows = #tilegpu.linear<reg = [[8]], lane = [[0], [0], [1], [2], [4]], warp = [[16], [32]]>
// CHECK-LABEL: func.func @scale_rows
// CHECK-SAME: (%[[X:[^:]+]]: !llvm.struct<{{.+}}>, %[[A:[^:]+]]: !llvm.struct<(f32, f32)>)
// CHECK-DAG: %[[A0:.+]] = llvm.extractvalue %[[A]][0]
// CHECK-DAG: %[[A1:.+]] = llvm.extractvalue %[[A]][1]
// CHECK-DAG: %[[ONE:.+]] = llvm.mlir.constant(1.000000e+00 : f32) : f32
// CHECK: %[[D0:.+]] = llvm.fcmp "une" %[[A0]], %[[ONE]]
// CHECK: %[[D1:.+]] = llvm.fcmp "une" %[[A1]], %[[ONE]]
// CHECK: %[[ANY:.+]] = llvm.or %[[D0]], %[[D1]]
// CHECK: %[[WARP:.+]] = nvvm.vote.sync any %{{.+}}, %[[ANY]] -> i1
// CHECK: %[[R:.+]] = scf.if %[[WARP]]
// CHECK: %[[X0:.+]] = llvm.extractvalue %[[X]][0]
// CHECK: llvm.fmul %[[X0]], %[[A0]]
// CHECK-COUNT-31: llvm.fmul
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[X]]
// CHECK: return %[[R]]
func.func @scale_rows(%x: tensor<64x64xf32, #wgmma>, %a: tensor<64xf32, #rows>) -> tensor<64x64xf32, #wgmma> {
  %r = tile.scale_rows %x, %a : tensor<64x64xf32, #wgmma>, tensor<64xf32, #rows>
  return %r : tensor<64x64xf32, #wgmma>
}

// -----

#blocked = #tilegpu.blocked<size_per_thread = [1], threads = [32], warps = [4], order = [0]>
#wgmma = #tilegpu.wgmma<warpgroups = 1>
func.func @scale_rows_elsewhere(%x: tensor<64x64xf32, #wgmma>, %a: tensor<64xf32, #blocked>) {
  // expected-error @+2 {{'tile.scale_rows' op expected the factors in the slice of the scaled tile's layout}}
  // expected-error @+1 {{failed to legalize operation 'tile.scale_rows'}}
  %r = tile.scale_rows %x, %a : tensor<64x64xf32, #wgmma>, tensor<64xf32, #blocked>
  return
}
