#!/usr/bin/env python3
"""tilec's attention variants timed on peer_flex.py's problems, for the same
device call as ../shared/tools/peer_flex.py (FlexAttention with the same
definitions: window 1024, cap 20, prefix 1024, GQA group 4, ALiBi slopes
2^(-8 (h + 1) / H); document ids of random lengths around 1024, sorted or
shuffled, from the same generator calls), and the variants peer_flex.py lacks
on bench/flex_extra.py's (windowed soft-capping; a relative-position bias
table [H, 2·128 + 1] at run time).

Shapes: B = 16384 / N (--tokens / N), H = 2048 / d (rounded down), bf16, random normal
inputs (a --dims entry "192v128": Q, K with d = 192, V, O with 128, and
H = 2048 / 128, as bench/peer_heads.py times cuDNN); the forward
kernels compiled by bench/compile-variants.sh with their default schedules.
The document masks' forward visits the blocks flash_attention_block_mask_document
lists; that kernel runs first and is timed apart (as FlexAttention's
create_block_mask is not part of its time). Each output is first checked on
sampled rows against attention in double precision with the same rule; then timed (CUDA events, median of 7 means of
20 calls). Reports ms (compare with Flex's ms) and TFLOP/s = 2·B·H·N²·(d +
d_v) · density / time (4·B·H·N²·d when d_v = d), density being the fraction of (q, k) pairs the mask keeps
(as peer_flex.py counts it).

  bash bench/compile-variants.sh                  # on the CPU machine
  python3 bench/variants.py --ptx-dir bench-ptx-variants --json out/variants.json
"""
import argparse
import json
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402
from tilec.attention import tensor_arg  # noqa: E402
from tilec.driver import Kernel  # noqa: E402

W, CAP, P, GROUP = 1024, 20.0, 1024, 4
D = 128  # relative_bias_table's max_distance (bench/flex_extra.py's)




def documents(n, mean, gen, shuffle):
    """peer_flex.py's document ids: random lengths around `mean`, ids in
    order (or shuffled over the positions); the same generator calls."""
    lengths, total = [], 0
    while total < n:
        l = max(1, int(torch.empty(1).exponential_(1.0 / mean, generator=gen).item()))
        lengths.append(min(l, n - total))
        total += lengths[-1]
    doc = torch.repeat_interleave(torch.arange(len(lengths)), torch.tensor(lengths))
    if shuffle:
        doc = doc[torch.randperm(n, generator=gen)]
    return doc.cuda()


def keep(variant, i, j, doc=None):
    """The mask of `variant` on query positions i [R, 1] and keys j [1, N]."""
    if variant.startswith("document"):
        return doc[i] == doc[j]
    if variant in ("causal",):
        return j <= i
    if variant in ("sliding_window", "sliding_window_softcap"):
        return (j <= i) & (j >= i - W)
    if variant == "prefix_lm":
        return (j <= i) | (j < P)
    return torch.ones_like(i == j)


def modify(variant, s, h, heads, i, j, bias=None):
    if variant == "relative_bias_table":
        return s + bias[h % heads][torch.clamp(j - i, -D, D) + D].double()
    if variant in ("softcap", "sliding_window_softcap"):
        return CAP * torch.tanh(s / CAP)
    if variant == "alibi":
        slope = 2.0 ** (-8.0 * (h % heads + 1) / heads)
        return s + slope * (j - i).double()
    return s


def density(variant, n, doc=None):
    i = torch.arange(n, device="cuda")[:, None]
    j = torch.arange(n, device="cuda")[None, :]
    return keep(variant, i, j, doc).double().mean().item()


def head_dims(spec):
    """A --dims entry: "128" is (128, 128), "192v128" is (192, 128)."""
    d, _, dv = spec.partition("v")
    return int(d), int(dv or d)


def check(variant, q, k, v, o, heads, group, doc=None, bias=None):
    """Worst |O - ref| / max |ref| over rows 0, n/2, n-1 of 3 heads."""
    n, d = q.shape[1], q.shape[2]
    worst, scale = 0.0, 1.0 / math.sqrt(d)
    for bh in (0, q.shape[0] // 2, q.shape[0] - 1):
        rows = torch.tensor([0, n // 2, n - 1], device="cuda")
        kv = bh // group
        s = (q[bh, rows].double() @ k[kv].double().T) * scale
        i, j = rows[:, None], torch.arange(n, device="cuda")[None, :]
        s = modify(variant, s, bh, heads, i, j, bias)
        s = s.masked_fill(~keep(variant, i, j, doc), -math.inf)
        ref = torch.softmax(s, dim=-1) @ v[kv].double()
        err = (o[bh, rows].double() - ref).abs().max() / ref.abs().max()
        worst = max(worst, err.item())
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptx-dir", default="bench-ptx-variants")
    ap.add_argument("--dims", default="128")
    ap.add_argument("--seqlens", default="8192,16384")
    ap.add_argument("--variants",
                    default="dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,"
                            "sliding_window_softcap,relative_bias_table")
    ap.add_argument("--doc-mean", type=int, default=1024, help="as peer_flex.py's")
    ap.add_argument("--tokens", type=int, default=16384,
                    help="batch * seqlen (as peer_sdpa.py's --tokens)")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    print(f"# {torch.cuda.get_device_name()}: tilec forward on peer_flex.py's problems, bf16; "
          "ms and TFLOP/s (density-weighted)")
    print("variant\td\tN\tms\tTFLOP/s\trelerr")
    gen = torch.Generator(device="cuda").manual_seed(0)
    for spec in args.dims.split(","):
        d, dv = head_dims(spec)
        heads = 2048 // dv
        for n in (int(x) for x in args.seqlens.split(",")):
            b = max(1, args.tokens // n)
            doc_gen = torch.Generator().manual_seed(0)  # as peer_flex.py's, per (d, N)
            for variant in args.variants.split(","):
                doc, bias, extra, mask_ms = None, None, [], None
                if variant == "relative_bias_table":  # the table, as flex_extra.py's [H, 2D + 1]
                    bias = torch.randn(heads, 2 * D + 1, device="cuda", generator=gen)
                    extra = [tensor_arg(bias)]
                if variant.startswith("document"):
                    doc = documents(n, args.doc_mean, doc_gen, variant.endswith("shuffled"))
                    ids = doc.to(torch.int32)[None, :].expand(b, n).contiguous()  # [B, N]
                    # The block mask first (as Flex's create_block_mask, timed apart).
                    blocks_n = (n + 127) // 128
                    # One row per query head (as measured in bench/RESULTS.md,
                    # session 13; rows per batch would be H times cheaper to make).
                    counts = torch.empty(b * heads, blocks_n, 2, device="cuda", dtype=torch.int32)
                    blocks = torch.empty(b * heads, blocks_n, blocks_n, device="cuda",
                                         dtype=torch.int32)
                    make = Kernel(os.path.join(args.ptx_dir, "flash_attention_block_mask_document.ptx"))
                    margs = [n, n] + [tensor_arg(t) for t in (counts, blocks, ids)]
                    stream = torch.cuda.current_stream().cuda_stream
                    make(*margs, stream=stream)
                    mask_ms = bench_ms(lambda: make(*margs, stream=stream))
                    extra = [tensor_arg(counts), tensor_arg(blocks), tensor_arg(ids)]
                kernel_variant = "document" if variant.startswith("document") else variant
                name = "flash_attention_fwd" + ("" if variant == "dense" else "_" + kernel_variant)
                kernel = Kernel(os.path.join(args.ptx_dir, f"{name}-d{spec}.ptx"))
                group = GROUP if variant == "gqa" else 1
                q = torch.randn(b * heads, n, d, device="cuda", dtype=torch.bfloat16, generator=gen)
                k = torch.randn(b * heads // group, n, d, device="cuda", dtype=torch.bfloat16,
                                generator=gen)
                v = torch.randn(b * heads // group, n, dv, device="cuda", dtype=torch.bfloat16,
                                generator=gen)
                o = torch.full((b * heads, n, dv), float("nan"), device="cuda",
                               dtype=torch.bfloat16)
                lse = torch.empty(b * heads, n, device="cuda", dtype=torch.float32)
                a = [tensor_arg(t) for t in (q, k, v, o, lse)] + extra
                stream = torch.cuda.current_stream().cuda_stream
                kernel(*a, stream=stream)
                torch.cuda.synchronize()
                err = check(variant, q, k, v, o, heads, group, doc, bias)
                ms = bench_ms(lambda: kernel(*a, stream=stream))
                flops = 2.0 * b * heads * n * n * (d + dv) * density(variant, n, doc)
                row = {"variant": variant, "d": spec if dv != d else d, "N": n, "B": b, "ms": ms,
                       "tflops": flops / ms * 1e-9, "relerr": err}
                if mask_ms is not None:
                    row["block_mask_ms"] = mask_ms
                rows.append(row)
                extra_note = f"\tblock mask {mask_ms:.4f} ms" if mask_ms is not None else ""
                print(f"{variant}\t{d}\t{n}\t{ms:.4f}\t{row['tflops']:.1f}\t{err:.2g}{extra_note}",
                      flush=True)
                if err > 2e-2:
                    print(f"variants: {variant} d={d} N={n}: relerr {err:.3g} over 0.02",
                          file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "tool": "bench/variants.py",
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
