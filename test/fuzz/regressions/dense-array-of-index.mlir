

func.func @load_mask_shape(%p: tensor<4x!tile.ptr<f32>>, %m: tensor<8xi1>) {
  // expected-error @+1 {{'tile.load' op failed to verify that mask has the shape of ptr}}
  %v = "tile.load"(%p, %m) <{operandSegmentSizes = array<index: 1, 1, 0>}> : (tensor<4x!tile.ptr<f32>>, tensor<8xi1>) -> tensor<4xf32>
  return
}

