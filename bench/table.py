#!/usr/bin/env python3
"""Prints a markdown table of tilec-bench kernels next to the peers of the
same device call: one row per (d, N, causal), one column per kernel suffix.

  python3 bench/table.py TILEC.json PEERS.json default: tilegpu:_tilegpu tma:_tma

Each COLUMN:SUFFIX picks, for every row, the kernel of that head dim and
causality whose name (after its schedule tag) ends in SUFFIX ("" or a name
without a suffix: the default path). Ratios to cuDNN are printed for the
last column.
"""
import json
import re
import sys


def main():
    tilec = json.load(open(sys.argv[1]))["rows"]
    peers = json.load(open(sys.argv[2]))["rows"]
    columns = [arg.split(":", 1) for arg in sys.argv[3:]]
    # A kernel's path is the longest column suffix its name ends with ("":
    # none, the default path). mma.sync kernels and 3-slot rings are left out.
    suffixes = sorted({s for _, s in columns if s}, key=len, reverse=True)
    def path(name):
        return next((s for s in suffixes if name.endswith(s)), "")
    def pick(rows, suffix):
        return next((r for r in rows if path(r["kernel"]) == suffix), None)
    head = ["d", "N", "causal"] + [c for c, _ in columns] + ["FA2", "cuDNN", f"{columns[-1][0]} / cuDNN"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for p in sorted(peers, key=lambda r: (r["d"], r["causal"], r["N"])):
        rows = [r for r in tilec if r["d"] == p["d"] and r["N"] == p["N"] and r["causal"] == p["causal"]
                and not re.search(r"_mma$|_s3_", r["kernel"])]
        picked = [pick(rows, suffix) for _, suffix in columns]
        cells = [f"{r['tflops']:.1f}" if r else "–" for r in picked]
        cudnn = p["cudnn"]["tflops"]
        ratio = f"{picked[-1]['tflops'] / cudnn:.2f}" if picked[-1] else "–"
        n = f"{p['N'] // 1024}k"
        print(f"| {p['d']} | {n} | {'yes' if p['causal'] else 'no'} | " + " | ".join(cells) +
              f" | {p['flash']['tflops']:.0f} | {cudnn:.0f} | {ratio} |")


if __name__ == "__main__":
    main()
