"""Per-kernel times of tilec's attention backward (prep, dK/dV, dQ) on the GPU,
through the Python package, and a schedule sweep: every dK/dV or dQ kernel in
--sweep-dir (files KERNEL-DTYPE-dD-TAG.ptx, TAG naming the schedule) is timed
on the same inputs, and its gradients are checked against the default
kernel's (so a sweep entry that is fast and wrong shows).

    python3 bench/bwd_kernels.py --ptx-dir torch-ptx [--sweep-dir DIR] \
        --dims 64,128 --seqlens 1024,4096,16384 [--json out.json]

Shapes as tilec-bench: batch x seqlen = 16k tokens, 2048 / head_dim heads;
bf16. TFLOP/s count 2.5 x the forward's FLOPs (halved when causal). The
variant "gqa" runs --group query heads per K/V head (the kernels must have
been compiled for that group; compile-torch-kernels.sh's default is 2).
"""

import argparse
import glob
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
import tilec.attention as ta  # noqa: E402
from tilec.driver import Kernel  # noqa: E402


def time_ms(fn, warmup=3, repeats=10):
    for _ in range(warmup):
        fn()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(repeats):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / repeats


def relerr(a, b):
    return ((a.float() - b.float()).abs().max() / b.float().abs().max().clamp_min(1e-30)).item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ptx-dir", default="torch-ptx")
    p.add_argument("--sweep-dir")
    p.add_argument("--dims", default="64,128")
    p.add_argument("--seqlens", default="1024,4096,16384")
    p.add_argument("--variants", default=",causal")
    p.add_argument("--group", type=int, default=2, help="query heads per K/V head (gqa)")
    p.add_argument("--json")
    args = p.parse_args()
    rows = []
    a = ta.tensor_arg
    for d in map(int, args.dims.split(",")):
        for variant in args.variants.split(","):
            group = args.group if variant == "gqa" else 1
            kernels = ta.AttentionKernels(args.ptx_dir, variant=variant, dtype="bf16", head_dim=d,
                                          group=group)
            suffix = f"_{variant}" if variant else ""
            sweep = []
            if args.sweep_dir:
                for kind in ("dkdv", "dq"):
                    pattern = os.path.join(args.sweep_dir,
                                           f"flash_attention_bwd_{kind}{suffix}-bf16-d{d}-*.ptx")
                    sweep += [(kind, f[len(pattern) - 5:-4], Kernel(f)) for f in sorted(glob.glob(pattern))]
            for n in map(int, args.seqlens.split(",")):
                b, h = max(1, 16384 // n), 2048 // d
                torch.manual_seed(n + d)
                hk = h // group
                q, k, v, do = (torch.randn(b * heads, n, d, device="cuda", dtype=torch.bfloat16)
                               for heads in (h, hk, hk, h))
                o, lse = torch.empty_like(q), torch.empty(b * h, n, device="cuda")
                kernels.forward(a(q), a(k), a(v), a(o), a(lse))
                rows4 = ta.backward_stat_rows(n)
                delta = torch.zeros(b * h, rows4, device="cuda")
                lse2 = torch.zeros_like(delta)
                dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
                prep = lambda: kernels.prep(a(o), a(do), a(lse), a(delta), a(lse2))  # noqa: E731
                dkdv = lambda kern=kernels.dkdv: kern(a(q), a(k), a(v), a(do), a(lse2), a(delta),  # noqa: E731
                                                      a(dk), a(dv))
                dqk = lambda kern=kernels.dq: kern(a(q), a(k), a(v), a(do), a(lse2), a(delta), a(dq))  # noqa: E731
                t = {"prep": time_ms(prep), "dkdv": time_ms(dkdv), "dq": time_ms(dqk)}
                ref = {"dk": dk.clone(), "dv": dv.clone(), "dq": dq.clone()}
                # Against torch's SDPA backward (bf16, its own kernels).
                qs, ks, vs = (x.detach().view(b, -1, n, d).requires_grad_() for x in (q, k, v))
                torch.nn.functional.scaled_dot_product_attention(
                    qs, ks, vs, is_causal=variant == "causal",
                    enable_gqa=group > 1).backward(do.view(b, h, n, d))
                err = {name: relerr(ref[name].view(b, -1, n, d), g.grad)
                       for name, g in (("dq", qs), ("dk", ks), ("dv", vs))}
                flops = 2.5 * 4 * b * h * n * n * d / (2 if variant == "causal" else 1)
                total = sum(t.values())
                row = {"d": d, "N": n, "B": b, "H": h, "variant": variant or "dense",
                       "ms": t, "total_ms": total, "tflops": flops / total / 1e9,
                       "relerr_vs_sdpa": err, "sweep": {}}
                for kind, tag, kern in sweep:
                    # Outputs zeroed first: a kernel that writes nothing
                    # must not pass with the default kernel's gradients.
                    for out in (dk, dv, dq):
                        out.zero_()
                    if kind == "dkdv":
                        ms = time_ms(lambda: dkdv(kern))
                        bad = max(relerr(dk, ref["dk"]), relerr(dv, ref["dv"]))
                    else:
                        ms = time_ms(lambda: dqk(kern))
                        bad = relerr(dq, ref["dq"])
                    row["sweep"][f"{kind} {tag}"] = {"ms": ms, "relerr_vs_default": bad}
                rows.append(row)
                print(f"d{d} N{n} {row['variant']:6s} prep {t['prep']:.3f} dkdv {t['dkdv']:.3f} "
                      f"dq {t['dq']:.3f} ms  total {total:.3f}  {row['tflops']:.1f} TFLOP/s  "
                      f"err vs sdpa " + " ".join(f"{k} {e:.1e}" for k, e in err.items()), flush=True)
                for name, r in row["sweep"].items():
                    print(f"    {name:40s} {r['ms']:.3f} ms  (vs default {r['relerr_vs_default']:.1e})",
                          flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
