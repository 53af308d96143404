func.func @k(%p: !tile.ptr<f32>, %n: i32, %s: i64) {
  %c = arith.constant 0 : i32
  %d = tile.make_desc %p, [%n, %n], [%s, %s] : !tile.ptr<f32> -> !tile.desc<65536x65536xf32>
  %t = tile.load_block %d[%c, %c] : !tile.desc<65536x65536xf32> -> tensor<65536x65536xf32>
  tile.store_block %d[%c, %c], %t : !tile.desc<65536x65536xf32>, tensor<65536x65536xf32>
  return
}
