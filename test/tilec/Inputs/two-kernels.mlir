// Two kernels in one file: tilec refuses it (the launch metadata describes one).
func.func @a(%p: !tile.ptr<f32>) {
  return
}
func.func @b(%p: !tile.ptr<f32>) {
  return
}
