#!/usr/bin/env python3
"""Session 37's host-cost probe: is the Python launch path (arguments
packed, allocations checked, tensor maps encoded on every call) slower
than a short kernel, so that the GPU idles between back-to-back launches?
Times one forward kernel three ways in one process: bench_ms on
Kernel.__call__ (as bench/variants.py), the host time per call alone
(perf_counter over 200 calls), and bench_ms on a launch prepared once
(cuLaunchKernel on pointers built once); then cuDNN."""
import argparse, ctypes, os, sys, time
import torch
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..")
sys.path.insert(0, os.path.join(root, "python")); sys.path.insert(0, os.path.join(root, "bench"))
from timing import bench_ms
from tilec.attention import tensor_arg
from tilec.driver import Kernel, Driver
from tilec.metadata import pack_arguments, launch_grid
from torch.nn.attention import sdpa_kernel, SDPBackend

ap = argparse.ArgumentParser()
ap.add_argument("--ptx"); ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--d", type=int, default=128); ap.add_argument("--causal", action="store_true")
a = ap.parse_args()
n, d = a.n, a.d
b, h = 16384 // n, 2048 // d
flops = 4.0 * b * h * n * n * d / (2 if a.causal else 1)
kernel = Kernel(a.ptx)
stream = torch.cuda.current_stream().cuda_stream
q, k, v = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
o = torch.empty_like(q); lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
args = [tensor_arg(t) for t in (q, k, v, o, lse)]
call = lambda: kernel(*args, stream=stream)
ms = bench_ms(call)
torch.cuda.synchronize()
t = time.perf_counter()
for _ in range(200):
    call()
host = (time.perf_counter() - t) / 200 * 1e3
torch.cuda.synchronize()
# A launch prepared once: the same steps as Driver.launch, cuLaunchKernel alone per call.
drv = Driver.open()
meta = kernel.meta
grid = launch_grid(meta, args)
slots = pack_arguments(meta, args, grid)
maps = drv.encode_tensor_maps(meta, args)
function = kernel._loaded[None if not meta.tile_counter else stream][1]
g = (min(grid[0] * grid[1] * grid[2], kernel._resident), 1, 1) if meta.persistent else grid
addresses = [ctypes.addressof(s) for s in slots] + [m.address for m in maps]
pointers = (ctypes.c_void_p * len(addresses))(*addresses)
def prepared():
    drv.lib.cuLaunchKernel(function, g[0], g[1], g[2], meta.threads_per_block, 1, 1,
                           meta.shared_bytes, ctypes.c_void_p(stream), pointers, None)
ms2 = bench_ms(prepared)
torch.cuda.synchronize()
t = time.perf_counter()
for _ in range(200):
    prepared()
host2 = (time.perf_counter() - t) / 200 * 1e3
torch.cuda.synchronize()
qq, kk, vv = (x.view(b, h, n, d) for x in (q, k, v))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    f = lambda: torch.nn.functional.scaled_dot_product_attention(qq, kk, vv, is_causal=a.causal)
    ms3 = bench_ms(f)
    torch.cuda.synchronize(); t = time.perf_counter()
    for _ in range(200):
        f()
    host3 = (time.perf_counter() - t) / 200 * 1e3
print(f"{os.path.basename(a.ptx)} N={n}: Kernel() {ms:.4f} ms {flops/ms*1e-9:.1f} TFLOP/s, host {host:.4f} ms/call | "
      f"prepared {ms2:.4f} ms {flops/ms2*1e-9:.1f} TFLOP/s, host {host2:.4f} ms/call | "
      f"cuDNN {ms3:.4f} ms {flops/ms3*1e-9:.1f} TFLOP/s, host {host3:.4f} ms/call", flush=True)
