#!/usr/bin/env python3
"""Copies the kernel case in SRC to DST with one defect MUTATION, for the
tilec-run-case error tests: python3 mutate-case.py SRC DST MUTATION."""
import json
import shutil
import struct
import sys

src, dst, mutation = sys.argv[1:4]
shutil.rmtree(dst, ignore_errors=True)
shutil.copytree(src, dst)
path = dst + "/case.json"
case = json.load(open(path))
tensor = next(a for a in case["args"] if "tensor" in a)
if mutation == "truncated":
    name = dst + "/" + case["buffers"][tensor["tensor"]]["input"]
    data = open(name, "rb").read()
    open(name, "wb").write(data[: len(data) // 2])
elif mutation == "stride":
    tensor["strides"][0] = 1 << 40
elif mutation == "negative":
    tensor["strides"][0] = -1
elif mutation == "index":
    tensor["tensor"] = 99
elif mutation == "noargs":
    del case["args"]
elif mutation == "shape":
    tensor["shape"] = "big"
elif mutation == "tolerance":
    case["tolerance"] = -1
elif mutation == "nan":
    out = next(b for b in case["buffers"] if b["expected"])
    name = dst + "/" + out["expected"]
    count = len(open(name, "rb").read()) // 8
    open(name, "wb").write(struct.pack("<%dd" % count, *([float("nan")] * count)))
elif mutation == "nested":
    open(path, "w").write("[" * 100000 + "]" * 100000)
    sys.exit(0)
else:
    sys.exit("unknown mutation " + mutation)
json.dump(case, open(path, "w"))
