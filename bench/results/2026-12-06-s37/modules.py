#!/usr/bin/env python3
"""Session 37's probe for the next session: is the N = 1k rows' spread (steady
within a process, apart between processes: calls C, H) set when the module
is loaded? Loads the same PTX as K separate Kernel objects (each its own
cuModuleLoadData: its own code address and, for a kernel that claims tiles,
its own counter) and times each R times on the same inputs, interleaved, with
bench/timing.py's convention; then cuDNN. Spread across modules but not
across repeats of one module points at the load (code placement, the
counter's address); none across modules points at the process or machine.

  python3 bench/results/2026-12-06-s37/modules.py --ptx DIR/flash_attention_fwd_causal-d128.ptx --causal
"""
import argparse, os, sys
import torch
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..")
sys.path.insert(0, os.path.join(root, "python")); sys.path.insert(0, os.path.join(root, "bench"))
from timing import bench_ms  # noqa: E402
from tilec.attention import tensor_arg  # noqa: E402
from tilec.driver import Kernel  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--ptx", required=True)
ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--d", type=int, default=128)
ap.add_argument("--causal", action="store_true")
ap.add_argument("--modules", type=int, default=4)
ap.add_argument("--repeats", type=int, default=3)
a = ap.parse_args()
n, d = a.n, a.d
b, h = 16384 // n, 2048 // d
flops = 4.0 * b * h * n * n * d / (2 if a.causal else 1)
q, k, v = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
o = torch.empty_like(q)
lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
args = [tensor_arg(t) for t in (q, k, v, o, lse)]
stream = torch.cuda.current_stream().cuda_stream
kernels = [Kernel(a.ptx) for _ in range(a.modules)]
for kernel in kernels:
    kernel(*args, stream=stream)  # each loads its own module
torch.cuda.synchronize()
times = [[] for _ in kernels]
for _ in range(a.repeats):
    for i, kernel in enumerate(kernels):
        times[i].append(flops / bench_ms(lambda: kernel(*args, stream=stream)) * 1e-9)
for i, t in enumerate(times):
    print(f"module {i}: " + " ".join(f"{x:.1f}" for x in t) + " TFLOP/s", flush=True)
from torch.nn.attention import sdpa_kernel, SDPBackend  # noqa: E402
qq, kk, vv = (x.view(b, h, n, d) for x in (q, k, v))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    ms = bench_ms(lambda: torch.nn.functional.scaled_dot_product_attention(qq, kk, vv, is_causal=a.causal))
print(f"cuDNN: {flops / ms * 1e-9:.1f} TFLOP/s")
