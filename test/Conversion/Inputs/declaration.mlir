func.func private @k(%p: !tile.ptr<f32>)
