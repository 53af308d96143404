#!/usr/bin/env python3
"""Where a kernel's warps wait, by SASS instruction, from ncu's source page.

Reads the CSV of `ncu --import R.ncu-rep --page source --csv --print-source
sass` (gzipped or not) and prints the share of warp-state samples by opcode
and the instructions with the most samples, each with its top stall reasons
and its index in the kernel (so neighbouring instructions can be found in
`scripts/sass.sh`'s listing)."""
import argparse
import collections
import csv
import gzip


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        lines = f.read().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"Address"'))
    return list(csv.DictReader(lines[start:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    rows = read_rows(args.csv)
    stall_cols = [c for c in rows[0] if c.startswith("stall_") and "Not Issued" not in c]
    total = sum(int(r["Warp Stall Sampling (All Samples)"] or 0) for r in rows)
    by_op = collections.Counter()
    for r in rows:
        op = r["Source"].split()[0] if r["Source"].split() else "?"
        if op.startswith("@"):
            op = r["Source"].split()[1]
        by_op[op.split(".")[0]] += int(r["Warp Stall Sampling (All Samples)"] or 0)
    print(f"{len(rows)} instructions, {total} samples")
    print("by opcode: " + ", ".join(f"{op} {100 * n / total:.1f}%" for op, n in by_op.most_common(12)))
    ranked = sorted(enumerate(rows), key=lambda ir: -int(ir[1]["Warp Stall Sampling (All Samples)"] or 0))
    for i, r in ranked[: args.top]:
        n = int(r["Warp Stall Sampling (All Samples)"] or 0)
        stalls = sorted(((int(r[c] or 0), c[6:]) for c in stall_cols), reverse=True)[:3]
        why = ", ".join(f"{name} {v}" for v, name in stalls if v)
        print(f"{100 * n / total:5.1f}%  #{i:<5} {r['Source'].strip()[:60]:60}  {why}")


if __name__ == "__main__":
    main()
