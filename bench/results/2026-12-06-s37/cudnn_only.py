#!/usr/bin/env python3
"""cuDNN's forward (torch SDPA) launched 12 times at one shape, for ncu."""
import sys, torch
from torch.nn.attention import sdpa_kernel, SDPBackend
n, d, causal = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "causal"
b, h = 16384 // n, 2048 // d
q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(3))
with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
    for _ in range(12):
        torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal)
torch.cuda.synchronize()
