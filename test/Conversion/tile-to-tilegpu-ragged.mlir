// A tile the GPU lowering cannot place is an error at its op.
// RUN: tilec-opt %s --convert-tile-to-tilegpu -verify-diagnostics

func.func @ragged() {
  // expected-error @+1 {{tile dimensions must be powers of two for the GPU lowering, got 'tensor<48xi32>'}}
  %i = tile.iota : tensor<48xi32>
  return
}
