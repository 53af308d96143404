#!/usr/bin/env python3
"""Session 50's experiment, a PTX edit (not a tool): in the fused backward,
move each key-loop step's LSE loads (the eight ld.shared.v2 the consumers
issue right after the first wgmma.wait_group, which ptxas keeps below the
wait: short-scoreboard stalls before the first exp2, ncu session 49) up to
the step's first wgmma.fence, so their latency hides under the S and dP
wgmmas. Usage: hoist_lse.py IN.ptx OUT.ptx; prints how many steps moved."""
import re
import sys

lines = open(sys.argv[1]).read().split("\n")
moved = 0
i = 0
while i < len(lines):
    if lines[i].strip() == "wgmma.wait_group.sync.aligned \t1;" or re.fullmatch(
            r"\s*wgmma\.wait_group\.sync\.aligned\s+1;", lines[i]):
        j = i + 1
        block = []
        # the first run of loads after the wait, with the address computation
        # right above it when there is one
        while j < i + 400 and not (lines[j].strip().startswith("ld.shared.v2.b32")
                                   and lines[j].endswith("+65536];")):
            j += 1
        if re.match(r"\s*add\.s32\s+%r\d+, %r\d+, %r\d+;", lines[j - 1]):
            block.append(j - 1)
        while lines[j].strip().startswith("ld.shared.v2.b32"):
            block.append(j)
            j += 1
        loads = [k for k in block if "ld.shared" in lines[k]]
        if len(loads) == 8:
            # the step's start: the last "end inline asm" of an mbarrier wait
            # before i, then the first wgmma.fence after it
            k = i
            while "mbarrier.try_wait" not in lines[k]:
                k -= 1
            while lines[k].strip() != "wgmma.fence.sync.aligned;":
                k += 1
            # every register the moved lines read must be written before k
            text = [lines[b] for b in block]
            reads = set()
            for t in text:
                regs = re.findall(r"%r\d+", t.split("]")[0] if "[" in t else t)
                srcs = regs[1:] if "add.s32" in t else re.findall(r"\[(%r\d+)", t)
                reads.update(srcs)
            written_after = set()
            for m in range(k, i):
                d = re.match(r"\s*\S+\s+(%r\d+),", lines[m])
                if d:
                    written_after.add(d.group(1))
            assert not (reads & written_after), (reads & written_after, i)
            for b in reversed(block):
                del lines[b]
            lines[k:k] = text
            moved += 1
            i = j
            continue
    i += 1
open(sys.argv[2], "w").write("\n".join(lines))
print(f"hoist_lse: {moved} steps")
