#!/usr/bin/env python3
"""tilec's forward against cuDNN's (torch SDPA) at the same shapes, timed
alternately in one process: per shape cuDNN, tilec, cuDNN, tilec (each
bench/timing.py's median of 7 means of 20 launches), so that both run at
the clock the GPU holds then. Under sustained load an H100 sits at its
700 W power limit and its SM clock moves between 1.1 and 1.98 GHz with the
load's history (bench/RESULTS.md, session 47): timings taken in separate
processes, or one kernel after another for long, are not taken at the same
clock. The problem sizes are peer_sdpa.py's (B = 16k / N, H = 2048 / d).
  python3 bench/ab_cudnn.py --ptx-dir DIR --dims 64,128 --seqlens 1024,4096
  python3 bench/ab_cudnn.py --ptx-dir def=DIR --ptx-dir qs=DIR2 --dims 192
DIR holds bench/compile-variants.sh's flash_attention_fwd{,_causal}-dD.ptx;
with several (NAME=DIR), each is timed in turn after cuDNN, twice.
Prints per shape each TFLOP/s (mean of its two timings) and its ratio to
cuDNN's."""
import argparse
import json
import os
import sys

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402
from tilec.attention import tensor_arg  # noqa: E402
from tilec.driver import Kernel  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ptx-dir", action="append", required=True,
                    help="DIR, or NAME=DIR (repeatable)")
    ap.add_argument("--dims", default="128")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--variants", default="dense,causal")
    ap.add_argument("--json")
    args = ap.parse_args()
    dirs = [item.split("=", 1) if "=" in item else ("tilec", item) for item in args.ptx_dir]
    names = [name for name, _ in dirs]
    rows = []
    print(f"# {torch.cuda.get_device_name()}: tilec and cuDNN alternately, bf16, TFLOP/s")
    print("variant\td\tN\tcudnn\t" + "\t".join(f"{n}\t{n}/cudnn" for n in names))
    for d in (int(x) for x in args.dims.split(",")):
        h = 2048 // d
        for n in (int(x) for x in args.seqlens.split(",")):
            b = max(1, 16384 // n)
            for variant in args.variants.split(","):
                causal = variant == "causal"
                name = "flash_attention_fwd" + ("_causal" if causal else "")
                kernels = {kname: Kernel(os.path.join(path, f"{name}-d{d}.ptx")) for kname, path in dirs}
                q, k, v = (torch.randn(b * h, n, d, device="cuda", dtype=torch.bfloat16)
                           for _ in range(3))
                o = torch.empty_like(q)
                lse = torch.empty(b * h, n, device="cuda", dtype=torch.float32)
                a = [tensor_arg(t) for t in (q, k, v, o, lse)]
                stream = torch.cuda.current_stream().cuda_stream
                qq, kk, vv = (t.view(b, h, n, d) for t in (q, k, v))

                def theirs():
                    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                        return torch.nn.functional.scaled_dot_product_attention(
                            qq, kk, vv, is_causal=causal)

                ref = theirs().float()
                runs = {"cudnn": theirs}
                for kname, kernel in kernels.items():
                    runs[kname] = lambda kernel=kernel: kernel(*a, stream=stream)
                    o.fill_(float("nan"))
                    runs[kname]()
                    torch.cuda.synchronize()
                    err = ((o.view(b, h, n, d).float() - ref).norm() / ref.norm()).item()
                    if not err < 2e-2:
                        sys.exit(f"ab_cudnn: {kname} {variant} d={d} N={n}: relative error {err:.3g}")
                times = {key: [] for key in runs}
                for _ in range(2):
                    for key, run in runs.items():
                        times[key].append(bench_ms(run))
                flops = 4.0 * b * h * n * n * d * (0.5 if causal else 1.0)
                tf = {key: flops / (sum(ms) / len(ms)) * 1e-9 for key, ms in times.items()}
                rows.append({"variant": variant, "d": d, "N": n, "ms": times, "tflops": tf})
                cells = "\t".join(f"{tf[key]:.0f}\t{tf[key] / tf['cudnn']:.3f}" for key in names)
                print(f"{variant}\t{d}\t{n}\t{tf['cudnn']:.0f}\t{cells}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "tool": "bench/ab_cudnn.py",
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
