#!/usr/bin/env python3
"""Times the kernels of two or more PTX directories (e.g. main's compiler
and a change's) in one device call, alternating between them so that clock
and thermal drift fall on all alike, and prints each row's TFLOP/s per
directory and the ratio of each directory's median to the first's.

--pass fwd (default): the forward kernels of directories made by
bench/compile-variants.sh, timed by bench/variants.py (output checked
against double precision first). --pass bwd: the backward sets of
bench/compile-bwd.sh, timed by `tilec-bench --pass=bwd` (prep + dK/dV +
dQ; the fused backward as "dense_fused", "causal_fused"; --bench names the binary,
built by scripts/gpu-check.sh or cmake -DTILEC_ENABLE_MLIR=OFF into
build-gpu/); --variants and --dims do not apply.

  python3 bench/compare.py --dirs main=carry/v-main,tma=carry/v-tma \\
      --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 \\
      --reps 2 --out $OUT/r
  python3 bench/compare.py --pass bwd --dirs main=carry/b-main,new=carry/b-new \\
      --seqlens 1024,4096,16384 --out $OUT/r/bwd
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pass", dest="direction", choices=["fwd", "bwd"], default="fwd")
    ap.add_argument("--bench", default="build-gpu/bin/tilec-bench",
                    help="tilec-bench, for --pass bwd")
    ap.add_argument("--dirs", required=True,
                    help="NAME=DIR,... (the first is the baseline of the ratios)")
    ap.add_argument("--variants", default="dense,causal")
    ap.add_argument("--dims", default="128")
    ap.add_argument("--seqlens", default="1024,4096,16384")
    ap.add_argument("--reps", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=150, help="seconds per variants.py run")
    ap.add_argument("--out", default="out/compare", help="where the raw json and logs go")
    args = ap.parse_args()

    dirs = []
    for item in args.dirs.split(","):
        name, sep, path = item.partition("=")
        if not sep or not name or not os.path.isdir(path):
            sys.exit(f"compare.py: --dirs wants NAME=DIR with an existing DIR, got '{item}'")
        dirs.append((name, path))
    os.makedirs(args.out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))

    start = time.time()
    tflops = collections.defaultdict(list)  # (variant, d, N, name) -> [TFLOP/s]
    for rep in range(1, args.reps + 1):
        for name, path in dirs:
            stem = os.path.join(args.out, f"{name}-{rep}")
            if args.direction == "bwd":
                command = [args.bench, "--pass=bwd", "--ptx-dir=" + path,
                           "--seqlens=" + args.seqlens, "--json=" + stem + ".json"]
            else:
                command = [sys.executable, os.path.join(here, "variants.py"), "--ptx-dir", path,
                           "--variants", args.variants, "--dims", args.dims,
                           "--seqlens", args.seqlens, "--json", stem + ".json"]
            with open(stem + ".txt", "w") as log:
                try:
                    rc = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT,
                                        timeout=args.timeout).returncode
                except subprocess.TimeoutExpired:
                    rc = "timeout"
            print(f"# {name} rep {rep}: rc {rc}, {time.time() - start:.0f} s", flush=True)
            if rc != 0 or not os.path.exists(stem + ".json"):
                continue
            for row in json.load(open(stem + ".json"))["rows"]:
                tflops[(variantOf(row), row["d"], row["N"], name)].append(row["tflops"])

    names = [name for name, _ in dirs]
    print("variant d N " + " | ".join(names) + " | " +
          " ".join(f"{n}/{names[0]}" for n in names[1:]))
    # Head dims are numbers, or "192v128" (variants.py's d_qk v d_v).
    order = lambda k: (k[0], tuple(int(x) for x in str(k[1]).split("v")), k[2])
    for key in sorted({k[:3] for k in tflops}, key=order):
        cells, medians = [], {}
        for name in names:
            values = tflops.get(key + (name,), [])
            medians[name] = statistics.median(values) if values else None
            cells.append(" ".join(f"{v:.1f}" for v in values) or "-")
        ratios = [f"{medians[n] / medians[names[0]]:.3f}"
                  if medians[n] and medians[names[0]] else "-" for n in names[1:]]
        print(*key, " | ".join(cells), "|", " ".join(ratios))


def variantOf(row):
    """The row's variant: variants.py names it; tilec-bench's backward rows
    say causal or not, and fused by the kernel's name."""
    if "variant" in row:
        return row["variant"]
    name = ("causal" if row["causal"] else "dense")
    return name + ("_fused" if row["kernel"].endswith("_fused") else "")


if __name__ == "__main__":
    main()
