#!/usr/bin/env python3
"""The packed (varlen) attention's forward and backward next to the dense
kernels' at equal lengths, through tilec.attention on torch tensors.

The BENCHMARKS.md grid's tokens (16384 per row, hidden 2048: heads = 2048 / d)
as B = 16384 / N sequences of N tokens: the dense kernels on [B, H, N, d],
the packed ones on the same tokens as [16384, H, d] with cu_seqlens = 0, N,
2N, ... (the same FLOPs), so the ratio is the cost of packing. Then ragged
lengths (N/4 to 7N/4, as many tokens; FLOPs from the sum of L^2) for the
packed kernels alone. Forward and backward timed apart (CUDA events, median
over 7 repeats of the mean of 10 calls, after warm-up); the backward's
TFLOP/s count 2.5x the forward's FLOPs. Before timing, every packed output and
gradient is checked against the dense kernels' on the same tokens (equal
lengths: the same math in another layout).

  scripts/compile-torch-kernels.sh torch-ptx   # on the CPU machine
  python3 bench/varlen_bwd.py --ptx-dir torch-ptx --json out/varlen-bwd.json
"""
import argparse
import json
import os
import random
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402
import tilec.attention as ta  # noqa: E402

TOKENS, HIDDEN = 16384, 2048




def timed(forward, grads):
    """Forward ms and backward ms of `forward()` (returns o), o.backward(do)."""
    o = forward()
    do = torch.randn_like(o)
    fwd = bench_ms(forward, warmup=3, iters=10)

    def backward():
        for g in grads:
            g.grad = None
        o.backward(do, retain_graph=True)
    return fwd, bench_ms(backward, warmup=3, iters=10)


def flops(lengths, heads, d, causal):
    return sum(4.0 * heads * n * n * d * (0.5 if causal else 1.0) for n in lengths)


def ragged_lengths(n):
    rng = random.Random(n)
    lengths, left = [], TOKENS
    while left > 0:
        lengths.append(min(left, rng.randint(max(1, n // 4), n * 7 // 4)))
        left -= lengths[-1]
    return lengths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ptx-dir", default="torch-ptx")
    parser.add_argument("--dims", default="64,128")
    parser.add_argument("--seqlens", default="1024,4096,16384")
    parser.add_argument("--json")
    args = parser.parse_args()
    torch.manual_seed(0)
    rows = []
    print(f"# {torch.cuda.get_device_name()}: tilec packed (varlen) vs dense, bf16, {TOKENS} "
          f"tokens, hidden {HIDDEN}; TFLOP/s (fwd; bwd = 2.5x fwd FLOPs)")
    print("variant\td\tN\tlengths\tdense fwd\tvarlen fwd\tratio\tdense bwd\tvarlen bwd\tratio")
    for d in (int(x) for x in args.dims.split(",")):
        heads = HIDDEN // d
        for variant in ("", "causal"):
            causal = variant == "causal"
            dense_k = ta.AttentionKernels(args.ptx_dir, variant=variant, head_dim=d)
            packed_k = ta.AttentionKernels(args.ptx_dir, variant=variant, head_dim=d, packed=True)
            for n in (int(x) for x in args.seqlens.split(",")):
                for ragged in (False, True):
                    lengths = ragged_lengths(n) if ragged else [n] * (TOKENS // n)
                    cu = torch.tensor([0] + [sum(lengths[:i + 1]) for i in range(len(lengths))],
                                      dtype=torch.int32, device="cuda")
                    q, k, v = (torch.randn(TOKENS, heads, d, device="cuda", dtype=torch.bfloat16)
                               .requires_grad_() for _ in range(3))
                    longest = max(lengths)
                    packed = lambda: ta.attention_varlen(q, k, v, cu, cu, longest, longest, packed_k)
                    row = {"variant": variant or "dense", "d": d, "N": n,
                           "lengths": "ragged" if ragged else "equal", "B": len(lengths)}
                    if not ragged:
                        # The same tokens as [B, H, N, d]; the packed results must agree.
                        dq_, dk_, dv_ = (t.detach().view(-1, n, heads, d).transpose(1, 2)
                                         .contiguous().requires_grad_() for t in (q, k, v))
                        dense = lambda: ta.attention(dq_, dk_, dv_, dense_k)
                        o_d, o_p = dense(), packed()
                        do = torch.randn_like(o_p)
                        o_d.backward(do.view(-1, n, heads, d).transpose(1, 2))
                        o_p.backward(do)
                        worst = 0.0
                        for a, b in ((o_p, o_d), (q.grad, dq_.grad), (k.grad, dk_.grad),
                                     (v.grad, dv_.grad)):
                            b = b.transpose(1, 2).reshape(TOKENS, heads, d)
                            worst = max(worst, ((a.float() - b.float()).abs().max() /
                                                b.float().abs().max()).item())
                        row["max_rel_diff_vs_dense"] = worst
                        row["dense_fwd_ms"], row["dense_bwd_ms"] = timed(dense, (dq_, dk_, dv_))
                    row["varlen_fwd_ms"], row["varlen_bwd_ms"] = timed(packed, (q, k, v))
                    f = flops(lengths, heads, d, causal)
                    for key in ("dense", "varlen"):
                        if key + "_fwd_ms" in row:
                            row[key + "_fwd_tflops"] = f / row[key + "_fwd_ms"] * 1e-9
                            row[key + "_bwd_tflops"] = 2.5 * f / row[key + "_bwd_ms"] * 1e-9
                    rows.append(row)

                    def cell(key):
                        return f"{row[key]:.1f}" if key in row else "-"

                    def ratio(kind):
                        if "dense_" + kind + "_tflops" not in row:
                            return "-"
                        return f"{row['varlen_' + kind + '_tflops'] / row['dense_' + kind + '_tflops']:.3f}"
                    print(f"{row['variant']}\t{d}\t{n}\t{row['lengths']}\t{cell('dense_fwd_tflops')}\t"
                          f"{cell('varlen_fwd_tflops')}\t{ratio('fwd')}\t{cell('dense_bwd_tflops')}\t"
                          f"{cell('varlen_bwd_tflops')}\t{ratio('bwd')}"
                          + (f"\t(diff {row['max_rel_diff_vs_dense']:.1e})"
                             if "max_rel_diff_vs_dense" in row else ""), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "tool": "bench/varlen_bwd.py",
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
