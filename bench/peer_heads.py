#!/usr/bin/env python3
"""PyTorch's SDPA backends (cuDNN, FlashAttention-2, memory-efficient) at
head dims ../shared/tools/peer_sdpa.py does not time: Q and K with d_qk
columns, V and O with d_v (DeepSeek-style multi-head latent attention's
(192, 128)). peer_sdpa.py covers the square ones (--dims 96,192); run this
in the same device call as bench/variants.py with the same --dims.

Shapes as bench/variants.py's: B = 16384 / N, H = 2048 / d_v, bf16, random
normal inputs. FLOPs = 2·B·H·N²·(d_qk + d_v), halved when causal. Each
backend's output is checked against float32 attention on one head first;
a backend that refuses the shape prints n/a (and why, in the JSON).

  python3 bench/peer_heads.py --dims 192v128,128v64 --seqlens 1024,4096,16384 --json peers.json
"""
import argparse
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402

BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", default="192v128", help="d_qk v d_v entries, comma-separated")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} bf16 fwd; TFLOP/s")
    print("d\tN\tB\tH\tcausal\t" + "\t".join(BACKENDS))
    for spec in args.dims.split(","):
        d, _, dv = spec.partition("v")
        d, dv = int(d), int(dv or d)
        heads = 2048 // dv
        for n in (int(x) for x in args.seqlens.split(",")):
            b = max(1, 16384 // n)
            g = torch.Generator(device="cuda").manual_seed(0)
            q = torch.randn(b, heads, n, d, device="cuda", dtype=torch.bfloat16, generator=g)
            k = torch.randn(b, heads, n, d, device="cuda", dtype=torch.bfloat16, generator=g)
            v = torch.randn(b, heads, n, dv, device="cuda", dtype=torch.bfloat16, generator=g)
            for causal in (False, True):
                flops = 2.0 * b * heads * n * n * (d + dv) * (0.5 if causal else 1.0)
                scale = 1.0 / math.sqrt(d)
                ref = F.scaled_dot_product_attention(q[:1, :1].float(), k[:1, :1].float(),
                                                     v[:1, :1].float(), is_causal=causal,
                                                     scale=scale)
                row = {"d": spec, "N": n, "B": b, "H": heads, "causal": causal}
                for name, backend in BACKENDS.items():
                    fn = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal,
                                                                scale=scale)
                    try:
                        with sdpa_kernel(backend), torch.no_grad():
                            out = fn()
                            err = ((out[:1, :1].float() - ref).norm() / ref.norm()).item()
                            if not err < 1e-2:
                                raise RuntimeError(f"wrong result, relative error {err:.3g}")
                            ms = bench_ms(fn)
                        row[name] = {"ms": ms, "tflops": flops / ms * 1e-9, "relerr": err}
                    except Exception as e:  # a backend may not take the shape
                        row[name] = {"error": str(e).splitlines()[0][:160]}
                rows.append(row)
                cells = [f"{row[x]['tflops']:.0f}" if "tflops" in row[x] else "n/a"
                         for x in BACKENDS]
                print(f"{spec}\t{n}\t{b}\t{heads}\t{int(causal)}\t" + "\t".join(cells), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "tool": "bench/peer_heads.py", "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
