#!/usr/bin/env python3
"""Session 37's spread probe: one forward kernel (bench/compile-variants.sh
naming) at one N, timed R times in this process, each time on freshly
allocated inputs (the previous ones kept alive, so every round gets new
addresses), with bench/timing.py's convention; then torch's cuDNN SDPA on
the same shapes likewise. Prints ms per round and the data pointers' low
bits: whether the 1k rows' spread follows the allocation or the process."""
import argparse, os, sys
import torch
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..", "..", "..")
sys.path.insert(0, os.path.join(root, "python")); sys.path.insert(0, os.path.join(root, "bench"))
from timing import bench_ms
from tilec.attention import tensor_arg
from tilec.driver import Kernel
from torch.nn.attention import sdpa_kernel, SDPBackend

ap = argparse.ArgumentParser()
ap.add_argument("--ptx"); ap.add_argument("--n", type=int, default=1024)
ap.add_argument("--d", type=int, default=128); ap.add_argument("--causal", action="store_true")
ap.add_argument("--rounds", type=int, default=6)
a = ap.parse_args()
n, d = a.n, a.d
b, h = 16384 // n, 2048 // d
flops = 4.0 * b * h * n * n * d / (2 if a.causal else 1)
kernel = Kernel(a.ptx)
keep = []
stream = torch.cuda.current_stream().cuda_stream
for r in range(a.rounds):
    q, k, v = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    o = torch.empty_like(q); lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
    keep.append((q, k, v, o, lse))
    args = [tensor_arg(t) for t in (q, k, v, o, lse)]
    ms = bench_ms(lambda: kernel(*args, stream=stream))
    print(f"tilec round {r}: {ms:.4f} ms {flops / ms * 1e-9:.1f} TFLOP/s q@{q.data_ptr() % (1 << 24):#x}", flush=True)
for r in range(a.rounds):
    q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
    keep.append((q, k, v))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        ms = bench_ms(lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=a.causal))
    print(f"cudnn round {r}: {ms:.4f} ms {flops / ms * 1e-9:.1f} TFLOP/s", flush=True)
