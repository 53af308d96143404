//===- tilec-opt.cpp - run tilec passes on MLIR files, like mlir-opt ------===//
//
// Reads tile-dialect (or any registered dialect's) IR, runs the passes named on
// the command line and prints the result: the tool for inspecting and testing
// every stage of the pipeline.
//
//===----------------------------------------------------------------------===//

#include "tilec/InitAll.h"
#include "tilec/Support/InputCheck.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilec::registerTilecDialects(registry);
  tilec::registerTilecPasses();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "tilec optimizer driver: tile IR in, passes, IR out\n", registry);
  // Text MLIR's parser would crash on gets an error first (a file input;
  // standard input is read once, by the parser).
  if (input != "-")
    if (auto file = llvm::MemoryBuffer::getFile(input))
      if (std::string error = tilec::findParserCrashers((*file)->getBuffer()); !error.empty()) {
        llvm::errs() << input << ":" << error << "\n";
        return 1;
      }
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, input, output, registry));
}
