#!/usr/bin/env python3
"""tilec's forward against cuDNN's (torch SDPA) at the same shapes, timed
in turn in one process: per shape, after 0.2 s of all of them untimed,
cuDNN then each tilec set, then the same in reverse order (ABBA), each
bench/timing.py's median of 7 means of 20 launches. Under sustained load
an H100 sits at its 700 W power limit and its SM clock follows the load's
history (bench/RESULTS.md, session 47): timings taken in separate
processes, or one kernel after another for long, are not taken under the
same conditions; in turn, and in both orders, the drift within a shape
falls on both sides alike. The problem sizes are peer_sdpa.py's (B = 16k /
N, H = 2048 / d).
  python3 bench/ab_cudnn.py --ptx-dir DIR --dims 64,128 --seqlens 1024,4096
  python3 bench/ab_cudnn.py --ptx-dir def=DIR --ptx-dir qs=DIR2 --dims 192
DIR holds bench/compile-variants.sh's flash_attention_fwd{,_causal}-dD.ptx;
several sets are named NAME=DIR (names unique, not "cudnn"). Prints per
shape each TFLOP/s (mean of its two timings) and its ratio to cuDNN's,
and with --json every timing. A --dims entry "192v128" is Q, K at d = 192
with V, O at 128 (H = 2048 / 128, as bench/peer_heads.py times cuDNN)."""
import argparse
import json
import os
import sys
import time

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402
from tilec.attention import tensor_arg  # noqa: E402
from tilec.driver import Kernel  # noqa: E402

PRE_S = 0.2  # every contender untimed, in turn, before a shape's timings


def parse_dirs(items):
    """NAME=DIR pairs from --ptx-dir (a lone DIR is named "tilec")."""
    dirs = [item.split("=", 1) if "=" in item else ("tilec", item) for item in items]
    names = [name for name, _ in dirs]
    if len(set(names)) != len(names) or "cudnn" in names:
        sys.exit(f"ab_cudnn: --ptx-dir names must be unique and not 'cudnn', got {names}")
    for name, path in dirs:
        if not os.path.isdir(path):
            sys.exit(f"ab_cudnn: --ptx-dir {name}={path}: no such directory")
    return dirs


def time_shape(runs):
    """Each run's two timings: after PRE_S of them all, in order, then reversed."""
    start = time.perf_counter()
    while time.perf_counter() - start < PRE_S:
        for run in runs.values():
            run()
        torch.cuda.synchronize()
    times = {key: [] for key in runs}
    order = list(runs)
    for keys in (order, order[::-1]):
        for key in keys:
            times[key].append(bench_ms(runs[key]))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptx-dir", action="append", required=True,
                    help="DIR, or NAME=DIR (repeatable)")
    ap.add_argument("--dims", default="128")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--variants", default="dense,causal")
    ap.add_argument("--json")
    args = ap.parse_args()
    dirs = parse_dirs(args.ptx_dir)
    names = [name for name, _ in dirs]
    rows = []
    print(f"# {torch.cuda.get_device_name()}: tilec and cuDNN in turn (ABBA), bf16, TFLOP/s")
    print("variant\td\tN\tcudnn\t" + "\t".join(f"{n}\t{n}/cudnn" for n in names))
    try:
        for spec in args.dims.split(","):
            d, _, dv = spec.partition("v")
            d, dv = int(d), int(dv or d)
            h = 2048 // dv
            for variant in args.variants.split(","):
                causal = variant == "causal"
                name = "flash_attention_fwd" + ("_causal" if causal else "")
                kernels = {kname: Kernel(os.path.join(path, f"{name}-d{spec}.ptx"))
                           for kname, path in dirs}
                for n in (int(x) for x in args.seqlens.split(",")):
                    rows.append(measure(kernels, variant, causal, d, dv, h, n))
                    tf = rows[-1]["tflops"]
                    cells = "\t".join(f"{tf[k]:.0f}\t{tf[k] / tf['cudnn']:.3f}" for k in names)
                    print(f"{variant}\t{spec}\t{n}\t{tf['cudnn']:.0f}\t{cells}", flush=True)
    finally:
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"gpu": torch.cuda.get_device_name(), "tool": "bench/ab_cudnn.py",
                           "rows": rows}, f, indent=1)


def measure(kernels, variant, causal, d, dv, h, n):
    """One shape: every set checked against cuDNN's output, then timed."""
    b = max(1, 16384 // n)
    q, k = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16) for _ in range(2))
    v = torch.randn(b * h, n, dv, device="cuda", dtype=torch.bfloat16)
    o = torch.empty_like(v)
    lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
    a = [tensor_arg(t) for t in (q, k, v, o, lse)]
    stream = torch.cuda.current_stream().cuda_stream
    qq, kk, vv = (t.view(b, h, n, t.shape[-1]) for t in (q, k, v))

    def theirs():
        with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
            return torch.nn.functional.scaled_dot_product_attention(qq, kk, vv, is_causal=causal)

    ref = theirs().float()
    runs = {"cudnn": theirs}
    errors = {}
    for kname, kernel in kernels.items():
        runs[kname] = lambda kernel=kernel: kernel(*a, stream=stream)
        o.fill_(float("nan"))
        runs[kname]()
        torch.cuda.synchronize()
        errors[kname] = ((o.view(b, h, n, dv).float() - ref).norm() / ref.norm()).item()
        if not errors[kname] < 2e-2:
            raise SystemExit(f"ab_cudnn: {kname} {variant} d={d} d_v={dv} N={n}: relative error "
                             f"{errors[kname]:.3g}")
    times = time_shape(runs)
    flops = 2.0 * b * h * n * n * (d + dv) * (0.5 if causal else 1.0)
    tflops = {key: flops / (sum(ms) / len(ms)) * 1e-9 for key, ms in times.items()}
    return {"variant": variant, "d": d, "dv": dv, "N": n, "B": b, "H": h, "ms": times, "tflops": tflops,
            "relerr": errors}


if __name__ == "__main__":
    main()
