#!/usr/bin/env python3
"""A mutation fuzzer for tilec's parser, verifiers and pipeline.

Takes the project's own MLIR inputs (test/**/*.mlir, examples/tile-ir), mutates
each a few times (a line deleted, duplicated or swapped, a number or type
replaced, a span of characters cut, a token from another input inserted) and
runs every mutant through `tilec-opt` (parse and verify); a mutant that
parses also goes through `tilec --emit=ptx` for sm_80 and sm_90a. A run
fails on a crash (a signal, an abort, "PLEASE submit a bug report", a stack
dump) or a timeout; an error message and a non-zero exit are the expected
answer to bad input. Failing mutants are written to --keep (with the command
and its output) so they can become regression tests
(test/fuzz/regressions/, which every run replays first).

  python3 scripts/fuzz.py --bin build/bin --seconds 60 --seed 1
  python3 scripts/fuzz.py --bin build/bin --mutants 20000 --seed 7 --jobs 2

Deterministic for a seed and a set of inputs (apart from timeouts). Prints
how many mutants ran, parsed and compiled.
"""
import argparse
import concurrent.futures
import os
import random
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR:", "Assertion `",
               "terminate called", "Segmentation fault")
NUMBERS = ["0", "1", "-1", "2", "3", "7", "16", "48", "64", "127", "128", "255", "256",
           "1024", "65536", "2147483647", "2147483648", "-2147483648", "4294967296",
           "9223372036854775807", "1e30", "0.5", "nan"]
TYPES = ["f32", "f16", "bf16", "f64", "i1", "i8", "i32", "i64", "index", "f8E4M3FN"]


def corpus():
    """The inputs: every .mlir file of test/ and examples/ (RUN lines kept:
    they are comments to the parser)."""
    files = []
    for top in ("test", "examples"):
        for dirpath, _, names in os.walk(os.path.join(ROOT, top)):
            if "regressions" in dirpath:
                continue
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(".mlir")]
    texts = []
    for path in sorted(files):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        # -split-input-file inputs: each part is an input of its own.
        texts += [part for part in text.split("// -----") if part.strip()]
    return texts


def mutate(text, rng, tokens):
    lines = text.split("\n")
    kind = rng.randrange(7)
    if kind == 0 and len(lines) > 1:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 1:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 2 and len(lines) > 1:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 3:  # replace a number
        spots = [(i, m) for i, l in enumerate(lines) for m in re.finditer(r"(?<![%\w])\d+", l)]
        if spots:
            i, m = rng.choice(spots)
            lines[i] = lines[i][:m.start()] + rng.choice(NUMBERS) + lines[i][m.end():]
    elif kind == 4:  # replace a type
        spots = [(i, m) for i, l in enumerate(lines)
                 for m in re.finditer(r"\b(f32|f16|bf16|i1|i8|i32|i64|index)\b", l)]
        if spots:
            i, m = rng.choice(spots)
            lines[i] = lines[i][:m.start()] + rng.choice(TYPES) + lines[i][m.end():]
    elif kind == 5:  # cut a span
        joined = "\n".join(lines)
        if joined:
            a = rng.randrange(len(joined))
            b = min(len(joined), a + rng.randrange(1, 40))
            return joined[:a] + joined[b:]
    else:  # insert a token seen elsewhere
        i = rng.randrange(len(lines))
        at = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:at] + " " + rng.choice(tokens) + " " + lines[i][at:]
    return "\n".join(lines)


def crashed(proc_or_none, output):
    if proc_or_none is None:
        return "timeout"
    if proc_or_none.returncode < 0:
        return f"signal {-proc_or_none.returncode}"
    if proc_or_none.returncode in (134, 139):
        return f"exit {proc_or_none.returncode}"
    for mark in CRASH_MARKS:
        if mark in output:
            return f"'{mark}' in the output"
    return None


def run(cmd, timeout):
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=timeout)
        return proc, proc.stdout.decode("utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return None, ""


def check(text, binaries, timeout, workdir):
    """Runs one input; returns (parsed, compiled, failure or None)."""
    fd, path = tempfile.mkstemp(suffix=".mlir", dir=workdir)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        opt = [os.path.join(binaries, "tilec-opt"), path, "-o", os.devnull]
        proc, out = run(opt, timeout)
        why = crashed(proc, out)
        if why:
            return False, False, (why, opt, out)
        if proc.returncode != 0:
            return False, False, None
        compiled = False
        for arch in ("sm_80", "sm_90a"):
            cmd = [os.path.join(binaries, "tilec"), path, f"--arch={arch}", "--emit=ptx",
                   "-o", os.devnull]
            proc, out = run(cmd, timeout)
            why = crashed(proc, out)
            if why:
                return True, compiled, (why, cmd, out)
            compiled |= proc.returncode == 0
        return True, compiled, None
    finally:
        os.unlink(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seconds", type=float, default=0, help="stop after this long (0: no limit)")
    ap.add_argument("--mutants", type=int, default=0, help="stop after this many (0: no limit)")
    ap.add_argument("--timeout", type=float, default=10, help="seconds per command")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep", default=os.path.join(ROOT, "build", "fuzz-failures"))
    args = ap.parse_args()
    if not args.seconds and not args.mutants:
        ap.error("give --seconds or --mutants")

    texts = corpus()
    tokens = sorted({t for text in texts for t in re.findall(r"[%\w.:<>!#-]+", text)})
    regressions = os.path.join(ROOT, "test", "fuzz", "regressions")
    replay = [open(os.path.join(regressions, n)).read()
              for n in sorted(os.listdir(regressions)) if n.endswith(".mlir")] \
        if os.path.isdir(regressions) else []
    rng = random.Random(args.seed)
    start = time.time()
    counts = {"mutants": 0, "parsed": 0, "compiled": 0, "failures": 0}
    os.makedirs(args.keep, exist_ok=True)

    def inputs():
        yield from replay
        while True:
            yield mutate(rng.choice(texts), rng, tokens)

    def done():
        return ((args.seconds and time.time() - start > args.seconds) or
                (args.mutants and counts["mutants"] >= args.mutants + len(replay)))

    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        source = inputs()
        pending = {}
        while pending or not done():
            while not done() and len(pending) < 2 * args.jobs:
                text = next(source)
                pending[pool.submit(check, text, args.bin, args.timeout, workdir)] = text
                counts["mutants"] += 1
            finished, _ = concurrent.futures.wait(pending, return_when="FIRST_COMPLETED")
            for future in finished:
                text = pending.pop(future)
                parsed, compiled, failure = future.result()
                counts["parsed"] += parsed
                counts["compiled"] += compiled
                if failure:
                    counts["failures"] += 1
                    why, cmd, out = failure
                    name = os.path.join(args.keep, f"failure-{args.seed}-{counts['failures']}")
                    with open(name + ".mlir", "w") as f:
                        f.write(text)
                    with open(name + ".txt", "w") as f:
                        f.write(f"{why}\n{' '.join(cmd)}\n{out[-4000:]}")
                    print(f"FAIL ({why}): {name}.mlir: {' '.join(cmd[:1] + cmd[2:])}", flush=True)
    print(f"fuzz: seed {args.seed}: {counts['mutants']} inputs ({len(replay)} regressions), "
          f"{counts['parsed']} parsed, {counts['compiled']} compiled to PTX, "
          f"{counts['failures']} crashes or timeouts, {time.time() - start:.0f} s")
    return 1 if counts["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
