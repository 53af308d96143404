// Fuzzer seed 8 (session 11): an NVVM op of Hopper (an mbarrier fence)
// compiled for sm_80 aborted in the NVPTX backend ("Cannot select"); now an
// error at the op.
func.func @k(%p: !tile.ptr<bf16>, %k: i32) {
  %c0 = arith.constant 0 : i32
  nvvm.fence.mbarrier.init
  return
}
