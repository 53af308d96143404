// An op no pattern lowers (math.erf) is named at its line, with a clear
// reason, before the translation to LLVM IR (which called it a missing
// translation interface).
// RUN: not tilec %s --emit=ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: not tilec %s --emit=ptx --lowering=tilegpu -o /dev/null 2>&1 | FileCheck %s
// CHECK: unsupported-op.mlir:13:8: error: 'math.erf' is not supported by the GPU lowering (nothing converts it to LLVM or NVVM)
// CHECK-NOT: LLVMTranslationDialectInterface
func.func @erf(%p: !tile.ptr<f32>) {
  %i = tile.iota : tensor<128xi32>
  %b = tile.splat %p : tensor<128x!tile.ptr<f32>>
  %q = tile.addptr %b, %i : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
  %v = tile.load %q : tensor<128x!tile.ptr<f32>>
  %e = math.erf %v : tensor<128xf32>
  tile.store %q, %e : tensor<128x!tile.ptr<f32>>
  return
}
