//===- InitAll.h - one place that registers tilec's dialects and passes ---===//

#ifndef TILEC_INITALL_H
#define TILEC_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace tilec {

/// Adds the tile dialect and every upstream dialect the tilec pipeline
/// produces or consumes (func, arith, math, scf, cf, gpu, llvm, nvvm).
void registerTilecDialects(mlir::DialectRegistry &registry);

/// Registers tilec's passes and the upstream passes its pipeline runs
/// (canonicalize, cse, inline, ...) with the global pass registry, so that
/// `tilec-opt` and `--pass-pipeline` strings can name them.
void registerTilecPasses();

} // namespace tilec

#endif // TILEC_INITALL_H
