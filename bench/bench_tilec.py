#!/usr/bin/env python3
"""Times tilec kernels on the GPU next to PyTorch, in one process.

The PTX and its launch metadata come from `tilec --emit=ptx` on the CPU
machine (bench/compile.sh); this script loads them with CuPy (CUDA driver),
launches them on PyTorch tensors, checks every output against PyTorch on the
same inputs, and times both with CUDA events: the median over 7 repeats of the
mean of 20 back-to-back launches, after warm-up. Never on zeros.

  python3 bench/bench_tilec.py matmul --ptx-dir bench-ptx --json out/matmul.json
  python3 bench/bench_tilec.py attention --ptx-dir bench-ptx --json out/attention.json
"""
import argparse, json, math, os, sys

import cupy
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402




class Kernel:
    """A tilec kernel: PTX + metadata, launched with torch tensors as arguments."""

    def __init__(self, ptx_path):
        with open(os.path.splitext(ptx_path)[0] + ".json") as f:
            self.meta = json.load(f)
        self.fn = cupy.RawModule(path=ptx_path).get_function(self.meta["kernel"])
        if self.meta["shared_bytes"] > 48 * 1024:
            self.fn.max_dynamic_shared_size_bytes = self.meta["shared_bytes"]

    def args(self, values):
        out = []
        for param, value in zip(self.meta["params"], values):
            if param["kind"] == "tensor":
                t = value
                assert t.dim() == param["rank"], (param["name"], t.shape)
                out.append(np.uint64(t.data_ptr()))
                out += [np.int32(s) for s in t.shape]
                out += [np.int64(s) for s in t.stride()]
            elif param["kind"] == "pointer":
                out.append(np.uint64(value.data_ptr()))
            elif param["dtype"] == "i32":
                out.append(np.int32(value))
            else:
                out.append(np.float32(value))
        return tuple(out)

    def launcher(self, grid, values):
        args = self.args(values)
        block = (self.meta["threads_per_block"], 1, 1)
        shared = self.meta["shared_bytes"]
        return lambda: self.fn(grid, block, args, shared_mem=shared)


def cdiv(a, b):
    return (a + b - 1) // b


def matmul(args):
    rows = []
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__}: bf16 matmul, f32 accumulate; TFLOP/s")
    print("config\tM\tN\tK\ttilec\ttorch.matmul\trelerr")
    for ptx in sorted(p for p in os.listdir(args.ptx_dir) if p.startswith("matmul") and p.endswith(".ptx")):
        kernel = Kernel(os.path.join(args.ptx_dir, ptx))
        bm, bn = (int(x) for x in ptx.split("_")[1].split("x")[:2])
        for m, n, k in [(1024, 1024, 1024), (2048, 2048, 2048), (4096, 4096, 4096), (8192, 8192, 8192),
                        (4000, 3000, 2000)]:
            g = torch.Generator(device="cuda").manual_seed(0)
            a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16, generator=g)
            b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16, generator=g)
            c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float32)
            run = kernel.launcher((cdiv(m, bm), cdiv(n, bn), 1), [a, b, c])
            run()
            torch.cuda.synchronize()
            ref = torch.matmul(a.float(), b.float())
            err = ((c - ref).abs().max() / ref.abs().max()).item()
            flops = 2.0 * m * n * k
            ms = bench_ms(run)
            ms_torch = bench_ms(lambda: torch.matmul(a, b))
            row = {"config": ptx[:-4], "M": m, "N": n, "K": k, "tilec_ms": ms, "torch_ms": ms_torch,
                   "tilec_tflops": flops / ms * 1e-9, "torch_tflops": flops / ms_torch * 1e-9, "relerr": err}
            rows.append(row)
            print(f"{row['config']}\t{m}\t{n}\t{k}\t{row['tilec_tflops']:.1f}\t{row['torch_tflops']:.1f}\t{err:.2g}",
                  flush=True)
    return rows


def attention(args):
    rows = []
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__}: attention forward bf16; TFLOP/s")
    print("kernel\td\tN\tB\tH\tcausal\ttilec\tsdpa-flash\trelerr")
    for ptx in sorted(p for p in os.listdir(args.ptx_dir) if p.startswith("flash") and p.endswith(".ptx")):
        kernel = Kernel(os.path.join(args.ptx_dir, ptx))
        # flash_attention_fwd[_causal]_d{d}_m{bm}_n{bn}_w{warps}.ptx
        parts = ptx[:-4].split("_")
        causal = "causal" in parts
        d = int(next(p[1:] for p in parts if p.startswith("d") and p[1:].isdigit()))
        bm = int(next(p[1:] for p in parts if p.startswith("m") and p[1:].isdigit()))
        for n in [int(x) for x in args.seqlens.split(",")]:
            b, h = max(1, 16384 // n), 2048 // d
            g = torch.Generator(device="cuda").manual_seed(0)
            q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
            o = torch.full_like(q, float("nan"))
            lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
            flat = lambda t: t.view(b * h, n, d)
            run = kernel.launcher((cdiv(n, bm), b * h, 1), [flat(q), flat(k), flat(v), flat(o), lse])
            run()
            torch.cuda.synchronize()
            ref = F.scaled_dot_product_attention(q[:1].float(), k[:1].float(), v[:1].float(), is_causal=causal)
            err = ((o[:1].float() - ref).norm() / ref.norm()).item()
            flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
            ms = bench_ms(run)
            from torch.nn.attention import SDPBackend, sdpa_kernel
            with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                ms_fa2 = bench_ms(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
            row = {"kernel": ptx[:-4], "d": d, "N": n, "B": b, "H": h, "causal": causal, "tilec_ms": ms,
                   "tilec_tflops": flops / ms * 1e-9, "fa2_tflops": flops / ms_fa2 * 1e-9, "relerr": err}
            rows.append(row)
            print(f"{row['kernel']}\t{d}\t{n}\t{b}\t{h}\t{int(causal)}\t{row['tilec_tflops']:.1f}\t"
                  f"{row['fa2_tflops']:.1f}\t{err:.2g}", flush=True)
            del q, k, v, o
    return rows


def memory(args):
    """Peak device memory of one forward pass: tilec against PyTorch's math
    backend, which materializes the N x N scores (B=1, H=8, d=128, bf16)."""
    rows = []
    ptx = next(p for p in sorted(os.listdir(args.ptx_dir))
               if p.startswith("flash_attention_fwd_d128") and p.endswith(".ptx"))
    kernel = Kernel(os.path.join(args.ptx_dir, ptx))
    bm = int(next(p[1:] for p in ptx[:-4].split("_") if p.startswith("m") and p[1:].isdigit()))
    print(f"# {torch.cuda.get_device_name()}: peak device memory of one forward, B=1 H=8 d=128 bf16 (GiB)")
    print("N\tinputs+outputs\ttilec peak\tmath peak")
    for n in [16384, 32768]:
        b, h, d = 1, 8, 128
        torch.cuda.empty_cache()
        g = torch.Generator(device="cuda").manual_seed(0)
        q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3))
        o = torch.empty_like(q)
        lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        flat = lambda t: t.view(b * h, n, d)
        kernel.launcher((cdiv(n, bm), b * h, 1), [flat(q), flat(k), flat(v), flat(o), lse])()
        torch.cuda.synchronize()
        ours = torch.cuda.max_memory_allocated()
        del o, lse
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        from torch.nn.attention import SDPBackend, sdpa_kernel
        try:
            with sdpa_kernel(SDPBackend.MATH):
                out = F.scaled_dot_product_attention(q, k, v)
            torch.cuda.synchronize()
            math_peak = torch.cuda.max_memory_allocated() / 2**30
            del out
        except torch.OutOfMemoryError:
            math_peak = float("nan")
        row = {"N": n, "inputs_outputs_gib": base / 2**30, "tilec_peak_gib": ours / 2**30,
               "math_peak_gib": math_peak}
        rows.append(row)
        print(f"{n}\t{base / 2**30:.3f}\t{ours / 2**30:.3f}\t{math_peak:.3f}", flush=True)
        del q, k, v
        torch.cuda.empty_cache()
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["matmul", "attention", "memory"])
    ap.add_argument("--ptx-dir", default="bench-ptx")
    ap.add_argument("--seqlens", default="1024,4096")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    rows = {"matmul": matmul, "attention": attention, "memory": memory}[args.what](args)
    bad = [r for r in rows if "relerr" in r and not r["relerr"] < 2e-2]
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": rows}, f, indent=1)
    if bad:
        print(f"{len(bad)} results differ from PyTorch", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
