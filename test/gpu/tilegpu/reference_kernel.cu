// A known-good stand-in for the tilegpu GEMM tile, for checking the host side
// of tilegpu-gemm-tile (tensor-map encoding, parameter passing, shared-memory
// attribute) apart from the compiler's kernel. Same interface: entry `kernel`,
// three __grid_constant__ CUtensorMaps (A, B, C), block 256, C = A * B^T on
// one 64x64 tile. It loads A and B with TMA (128B swizzle), unswizzles them in
// software, computes C with plain FMAs and stores it with a TMA store.
//
//   nvcc -arch=sm_90a -ptx -o gemm_tile.ptx test/gpu/tilegpu/reference_kernel.cu
//   tilegpu-gemm-tile gemm_tile.ptx 66560      (any size >= 33 KiB + 1 KiB)
//
// Not built by CMake (it needs nvcc); compiled by hand where wanted.
#include <cuda.h>
#include <cuda_bf16.h>
#include <cstdint>

extern "C" __global__ void __launch_bounds__(256)
    kernel(const __grid_constant__ CUtensorMap a, const __grid_constant__ CUtensorMap b,
           const __grid_constant__ CUtensorMap c) {
  extern __shared__ uint8_t raw[];
  // Swizzled TMA destinations want 1024-byte alignment.
  uint32_t base = static_cast<uint32_t>(__cvta_generic_to_shared(raw));
  uint32_t pad = (1024 - (base & 1023)) & 1023;
  uint8_t *smem = raw + pad;
  uint32_t sA = base + pad, sB = sA + 8192, sC = sA + 16384, bar = sA + 32768;
  const uint8_t *tA = smem, *tB = smem + 8192;
  float *tC = reinterpret_cast<float *>(smem + 16384);
  unsigned t = threadIdx.x;

  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16384;" ::"r"(bar));
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {0, 0}], [%2];" ::"r"(sA),
                 "l"(&a), "r"(bar)
                 : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {0, 0}], [%2];" ::"r"(sB),
                 "l"(&b), "r"(bar)
                 : "memory");
  }
  asm volatile("{\n"
               ".reg .pred done;\n"
               "wait:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               "@!done bra wait;\n"
               "}" ::"r"(bar)
               : "memory");

  // 128B swizzle: byte b of row r sits at r*128 + (((b>>4) ^ (r&7))<<4) + (b&15).
  auto at = [](const uint8_t *tile, int r, int k) {
    int byte = 2 * k;
    int offset = r * 128 + ((((byte >> 4) ^ (r & 7))) << 4) + (byte & 15);
    return __bfloat162float(*reinterpret_cast<const __nv_bfloat16 *>(tile + offset));
  };
  for (int e = t; e < 64 * 64; e += 256) {
    int i = e / 64, j = e % 64;
    float sum = 0.0f;
    for (int k = 0; k < 64; ++k)
      sum = fmaf(at(tA, i, k), at(tB, j, k), sum);
    tC[e] = sum;
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {0, 0}], [%1];" ::"l"(
                     &c),
                 "r"(sC)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
