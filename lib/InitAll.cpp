//===- InitAll.cpp - register tilec's dialects and passes -----------------===//

#include "tilec/InitAll.h"

#include "tilec/Dialect/Tile/Tile.h"
#include "tilec/Dialect/TileGPU/Passes.h"
#include "tilec/Dialect/TileGPU/TileGPU.h"
#include "tilec/Passes.h"
#include "tilec/Target/Pipeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Transforms/Passes.h"

void tilec::registerTilecDialects(mlir::DialectRegistry &registry) {
  registry.insert<tile::TileDialect, tilegpu::TileGPUDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect, mlir::gpu::GPUDialect,
                  mlir::LLVM::LLVMDialect, mlir::math::MathDialect, mlir::NVVM::NVVMDialect,
                  mlir::scf::SCFDialect>();
  mlir::func::registerInlinerExtension(registry);
}

void tilec::registerTilecPasses() {
  registerTilecGpuPasses();
  tilegpu::registerTileGPUPasses();
  registerTilecPipelines();
  mlir::registerTransformsPasses();
  mlir::registerConversionPasses();
}
