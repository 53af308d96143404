#!/usr/bin/env python3
"""FlexAttention on the tilec variants that ../shared/tools/peer_flex.py does
not define, with tilec's definitions, on peer_flex.py's problems (B = 16384 / N,
H = 2048 / d, bf16, random normal inputs; scores already scaled by 1/sqrt(d)
when a score modifier sees them, as in tilec):

  sliding_window_softcap  Gemma-2's local attention: kv <= q and kv >= q - W,
                          scores cap * tanh(s / cap)          (--window 1024, --cap 20)
  relative_bias_table     s + bias[h, clamp(kv - q, -D, D) + D], a learned table
                          [H, 2D + 1] given at run time        (--max-distance 128)

bench/variants.py times tilec's kernels on the same problems (the same
constants: bench/compile-variants.sh). Reports ms (median of 7 means of 20
calls, bench/timing.py) and TFLOP/s = 4·B·H·N²·d · density / time.

  python3 bench/flex_extra.py --dims 128 --seqlens 8192,16384 --json flex-extra.json
"""
import argparse
import json
import math
import os
import sys

import torch
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

sys.path.insert(0, os.path.dirname(__file__))
from timing import bench_ms  # noqa: E402

# Module-level constants: torch.compile specializes on globals (a float
# captured from an enclosing function becomes a symbolic input).
W = D = 0
CAP = 0.0
BIAS = None


def window(b, h, i, j):
    return (j <= i) & (j >= i - W)


def softcap(s, b, h, i, j):
    return CAP * torch.tanh(s / CAP)


def bias_table(s, b, h, i, j):
    return s + BIAS[h, torch.clamp(j - i, -D, D) + D]


VARIANTS = {
    "sliding_window_softcap": (softcap, window),
    "relative_bias_table": (bias_table, None),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--dims", default="128")
    ap.add_argument("--seqlens", default="8192,16384")
    ap.add_argument("--window", type=int, default=1024)
    ap.add_argument("--cap", type=float, default=20.0)
    ap.add_argument("--max-distance", type=int, default=128)
    ap.add_argument("--json")
    args = ap.parse_args()
    global W, CAP, D, BIAS
    W, CAP, D = args.window, args.cap, args.max_distance
    torch._dynamo.config.cache_size_limit = 1000
    flex = torch.compile(flex_attention)
    rows = []
    print(f"# {torch.cuda.get_device_name()} torch {torch.__version__} FlexAttention bf16 forward")
    print("variant\td\tN\tB\tH\tdensity\tms\teff_TFLOP/s")
    for d in (int(x) for x in args.dims.split(",")):
        for n in (int(x) for x in args.seqlens.split(",")):
            b, h = max(1, 16384 // n), 2048 // d
            g = torch.Generator(device="cuda").manual_seed(0)
            q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.bfloat16, generator=g)
                       for _ in range(3))
            BIAS = torch.randn(h, 2 * D + 1, device="cuda", generator=g)
            for name in args.variants.split(","):
                if name not in VARIANTS:
                    raise SystemExit(f"unknown variant {name}; known: {', '.join(VARIANTS)}")
                score_mod, mask_mod = VARIANTS[name]
                density, block_mask = 1.0, None
                if mask_mod is not None:
                    i = torch.arange(n, device="cuda")
                    density = mask_mod(0, 0, i[:, None], i[None, :]).float().mean().item()
                    block_mask = create_block_mask(mask_mod, None, None, n, n)
                fn = lambda: flex(q, k, v, score_mod=score_mod, block_mask=block_mask,  # noqa: E731
                                  scale=1 / math.sqrt(d))
                row = {"variant": name, "d": d, "N": n, "B": b, "H": h, "density": density}
                try:
                    ms = bench_ms(fn)
                    row.update(ms=ms, eff_tflops=4.0 * b * h * n * n * d * density / ms * 1e-9)
                    print(f"{name}\t{d}\t{n}\t{b}\t{h}\t{density:.3f}\t{ms:.3f}\t"
                          f"{row['eff_tflops']:.0f}", flush=True)
                except Exception as e:  # a variant Flex cannot compile is reported, not fatal
                    row["error"] = str(e).splitlines()[0][:160]
                    print(f"{name}\t{d}\t{n}\t{b}\t{h}\t{density:.3f}\terror: {row['error']}",
                          flush=True)
                rows.append(row)
            del q, k, v
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "tool": "bench/flex_extra.py", "rows": rows}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
