#!/usr/bin/env python3
"""Summarizes the loops of a cuobjdump -sass listing that issue wgmma: for
each backward branch whose body holds an HGMMA (barrier waits' retry
blocks, placed after EXIT, are skipped), the body's instructions, HGMMAs and R2URs. Used by
scripts/sass.sh; the numbers compare schedules and lowerings without a GPU
(fewer instructions a loop is not always faster: measure on the device).
A listing of several kernels (a cubin of many) is summarized kernel by
kernel, since each kernel's addresses start at 0."""
import argparse
import re


def functions(path):
    """(name, [(address, instruction)]) for each kernel of the listing."""
    out = []
    with open(path) as f:
        for line in f:
            m = re.search(r"Function : (\S+)", line)
            if m:
                out.append((m.group(1), []))
                continue
            m = re.search(r"/\*([0-9a-f]{4,6})\*/\s+(.*?)\s*;", line)
            if m:
                if not out:
                    out.append(("", []))
                out[-1][1].append((int(m.group(1), 16), m.group(2)))
    return out


def is_r2ur(text):
    """An R2UR, predicated or not."""
    return "R2UR" in text.split()[:2]


def loops(ins):
    index = {address: i for i, (address, _) in enumerate(ins)}
    found = []
    for i, (address, text) in enumerate(ins):
        if "BRA" not in text:
            continue
        m = re.search(r"0x([0-9a-f]+)", text)
        if not m:
            continue
        target = int(m.group(1), 16)
        if target >= address or target not in index:
            continue
        body = [t for _, t in ins[index[target]:i + 1]]
        # A barrier wait's retry block sits after the kernel's EXIT and
        # branches back to the wait: not a loop of the program.
        if any(t.split()[-1] == "EXIT" for t in body):
            continue
        hgmma = sum("HGMMA" in t for t in body)
        if hgmma:
            r2ur = sum(is_r2ur(t) for t in body)
            found.append((target, address, len(body), hgmma, r2ur))
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("sass")
    ap.add_argument("--name", default=None, help="what to call it in the output")
    args = ap.parse_args()
    kernels = functions(args.sass)
    for name, ins in kernels:
        title = args.name or args.sass
        if len(kernels) > 1:
            title += f" {name}"
        print(f"{title}: {len(ins)} instructions, {sum(is_r2ur(t) for _, t in ins)} R2UR")
        # Innermost first: a loop nested in another is printed before it.
        for start, end, size, hgmma, r2ur in sorted(loops(ins), key=lambda l: l[2]):
            print(f"  loop {start:#06x}-{end:#06x}: {size} instructions, {hgmma} HGMMA, "
                  f"{r2ur} R2UR")


if __name__ == "__main__":
    main()
