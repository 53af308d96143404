//===- tilec-opt.cpp - run tilec passes on MLIR files, like mlir-opt ------===//
//
// Reads tile-dialect (or any registered dialect's) IR, runs the passes named on
// the command line and prints the result: the tool for inspecting and testing
// every stage of the pipeline.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilec::registerTilecDialects(registry);
  tilec::registerTilecPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tilec optimizer driver: tile IR in, passes, IR out\n",
                        registry));
}
