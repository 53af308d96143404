//===- Passes.h - passes on and out of the tilegpu dialect -------*- C++ -*-===//

#ifndef TILEC_DIALECT_TILEGPU_PASSES_H
#define TILEC_DIALECT_TILEGPU_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace tilec::tilegpu {

#define GEN_PASS_DECL
#include "tilec/Dialect/TileGPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tilec/Dialect/TileGPU/Passes.h.inc"

} // namespace tilec::tilegpu

#endif // TILEC_DIALECT_TILEGPU_PASSES_H
